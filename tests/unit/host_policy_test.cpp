// The host's pure parts: catalogue names, the approval policy, the review of sampling requests.
// The audit log is in host_audit_test.cpp.
#include <mcp/host/approval.hpp>
#include <mcp/host/catalogue.hpp>
#include <mcp/host/manager.hpp>
#include <mcp/host/sampling_review.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace {

using namespace mcp::host;

TEST(host_catalogue, names_are_server__tool) {
    auto n = qualify_tool_names({{"git", "commit"}, {"fs", "read_file"}});
    EXPECT_EQ(n, (std::vector<std::string>{"git__commit", "fs__read_file"}));
}

TEST(host_catalogue, sanitised_and_unique_after_sanitising) {
    // "my.server" and "my server" both sanitise to "my_server"; so does the real "my_server".
    auto n = qualify_tool_names({{"my.server", "search"},
                                 {"my server", "search"},
                                 {"my_server", "search"},
                                 {"github", "search/code"},
                                 {"", "x"}});
    EXPECT_EQ(n[0], "my_server__search_2"); // sorted: "my server" < "my.server" < "my_server"
    EXPECT_EQ(n[1], "my_server__search");
    EXPECT_EQ(n[2], "my_server__search_3");
    EXPECT_EQ(n[3], "github__search_code");
    EXPECT_EQ(n[4], "___x");
    const std::regex safe("^[A-Za-z0-9_-]{1,64}$");
    for (const auto& s : n) EXPECT_TRUE(std::regex_match(s, safe)) << s;
}

TEST(host_catalogue, long_names_are_cut_with_a_hash_and_stay_unique) {
    const std::string server(40, 's');
    const std::string tool_a = std::string(40, 't') + "_alpha";
    const std::string tool_b = std::string(40, 't') + "_beta";
    auto n = qualify_tool_names({{server, tool_a}, {server, tool_b}, {server, tool_a + "é"}});
    std::set<std::string> distinct(n.begin(), n.end());
    EXPECT_EQ(distinct.size(), 3u);
    for (const auto& s : n) {
        EXPECT_LE(s.size(), 64u);
        EXPECT_EQ(s.rfind(server + "__", 0), 0u) << s;
    }
    // Stable: the same input gives the same names (no process-specific hashing).
    EXPECT_EQ(n, qualify_tool_names({{server, tool_a}, {server, tool_b}, {server, tool_a + "é"}}));
}

TEST(host_catalogue, a_name_once_given_stays_with_its_pair) {
    catalogue_names names;
    // Both servers up: named together, in sorted order ("echo.2" < "echo_2").
    EXPECT_EQ(names.assign({{"echo_2", "echo"}, {"echo.2", "echo"}}),
              (std::vector<std::string>{"echo_2__echo_2", "echo_2__echo"}));
    // "echo.2" restarts: the other keeps its name, and does not take the free-looking one.
    EXPECT_EQ(names.assign({{"echo_2", "echo"}}), (std::vector<std::string>{"echo_2__echo_2"}));
    EXPECT_EQ(names.owner("echo_2__echo"), (catalogue_names::pair{"echo.2", "echo"}));
    // Back: the same name as before.
    EXPECT_EQ(names.assign({{"echo.2", "echo"}, {"echo_2", "echo"}}),
              (std::vector<std::string>{"echo_2__echo", "echo_2__echo_2"}));
    // A pair seen later takes the first name nobody was ever given.
    EXPECT_EQ(names.assign({{"echo-2", "echo"}}), (std::vector<std::string>{"echo-2__echo"}));
    EXPECT_EQ(names.assign({{"echo?2", "echo"}}), (std::vector<std::string>{"echo_2__echo_3"}));
    EXPECT_EQ(names.name_of("echo?2", "echo"), "echo_2__echo_3");
    EXPECT_FALSE(names.name_of("echo?2", "other"));
    EXPECT_FALSE(names.owner("nobody__nothing"));
}

TEST(host_catalogue, the_first_server_up_keeps_the_plain_name) {
    // Servers that come up one after the other: the first named keeps the unsuffixed name for
    // good, whichever sorts first.
    catalogue_names names;
    EXPECT_EQ(names.assign({{"echo_2", "echo"}}), (std::vector<std::string>{"echo_2__echo"}));
    EXPECT_EQ(names.assign({{"echo.2", "echo"}, {"echo_2", "echo"}}),
              (std::vector<std::string>{"echo_2__echo_2", "echo_2__echo"}));
}

approval_request request(bool trusted, std::optional<bool> read_only) {
    approval_request r{.server = "s", .tool = "t", .qualified_name = "s__t"};
    r.server_trusted = trusted;
    mcp::tool t{.name = "t"};
    if (read_only) t.annotations = mcp::tool_annotations{.read_only_hint = *read_only};
    r.definition = t;
    return r;
}

TEST(host_approval, only_read_only_tools_of_trusted_servers_skip_the_user) {
    approval_policy p;
    EXPECT_EQ(policy_decision(p, request(true, true)), approval_kind::not_needed_trusted_read_only);
    EXPECT_EQ(policy_decision(p, request(false, true)),
              std::nullopt); // an untrusted server's hint is not believed
    EXPECT_EQ(policy_decision(p, request(true, false)), std::nullopt);
    EXPECT_EQ(policy_decision(p, request(true, std::nullopt)), std::nullopt);
    p.trusted_servers = {"s"};
    EXPECT_EQ(policy_decision(p, request(false, true)), approval_kind::not_needed_trusted_read_only);
    p.auto_approve_trusted_read_only = false;
    EXPECT_EQ(policy_decision(p, request(true, true)), std::nullopt);
    p.approve_all = true;
    EXPECT_EQ(policy_decision(p, request(false, false)), approval_kind::not_needed_all);
}

TEST(host_roots, file_uris) {
    EXPECT_EQ(file_uri("/home/me/my project/ü"), "file:///home/me/my%20project/%C3%BC");
}

// ------------------------------------------------------------------ sampling review

/// Answers with what it was asked, and remembers it.
struct echo_model : sampling_provider {
    std::vector<mcp::create_message_request> asked;
    mcp::create_message_result create_message(const std::string&, const mcp::create_message_request& r,
                                              const request_control&) override {
        asked.push_back(r);
        const auto& said = std::get<mcp::text_content>(r.messages.back().content.back()).text;
        return {.content = {mcp::text_content{.text = "model: " + said}}, .model = "m1"};
    }
    bool supports_tools() const override { return true; }
};

/// Decides as told; replaces the last text when `edit` is set.
struct scripted_reviewer : sampling_reviewer {
    bool send = true, give = true;
    std::optional<std::string> edit;
    std::vector<std::string> seen;
    std::optional<mcp::create_message_request> review_request(const std::string& server,
                                                              mcp::create_message_request r) override {
        seen.push_back("request from " + server);
        if (!send) return std::nullopt;
        if (edit) std::get<mcp::text_content>(r.messages.back().content.back()).text = *edit;
        return r;
    }
    bool review_result(const std::string& server, const mcp::create_message_request&,
                       const mcp::create_message_result& result) override {
        seen.push_back("answer for " + server + ": " +
                       std::get<mcp::text_content>(result.content.at(0)).text);
        return give;
    }
};

mcp::create_message_request hello_request() {
    return {.messages = {{.role = mcp::role::user, .content = {mcp::text_content{.text = "hello"}}}},
            .max_tokens = 10};
}

int rejection_code(const std::function<void()>& f, std::string& message) {
    try {
        f();
    } catch (const mcp::error& e) {
        message = e.what();
        return e.code();
    }
    return 0;
}

TEST(host_sampling_review, approved_both_ways_the_answer_reaches_the_server) {
    auto model = std::make_shared<echo_model>();
    auto reviewer = std::make_shared<scripted_reviewer>();
    reviewed_sampling_provider p(model, reviewer);
    EXPECT_TRUE(p.supports_tools());
    auto r = p.create_message("git", hello_request(), {});
    EXPECT_EQ(std::get<mcp::text_content>(r.content.at(0)).text, "model: hello");
    EXPECT_EQ(reviewer->seen, (std::vector<std::string>{"request from git", "answer for git: model: hello"}));
}

TEST(host_sampling_review, an_edited_request_is_what_the_model_sees) {
    auto model = std::make_shared<echo_model>();
    auto reviewer = std::make_shared<scripted_reviewer>();
    reviewer->edit = "hello, politely";
    reviewed_sampling_provider p(model, reviewer);
    auto r = p.create_message("git", hello_request(), {});
    ASSERT_EQ(model->asked.size(), 1u);
    EXPECT_EQ(std::get<mcp::text_content>(model->asked[0].messages[0].content[0]).text, "hello, politely");
    EXPECT_EQ(std::get<mcp::text_content>(r.content.at(0)).text, "model: hello, politely");
}

TEST(host_sampling_review, refused_before_the_model_is_never_asked) {
    auto model = std::make_shared<echo_model>();
    auto reviewer = std::make_shared<scripted_reviewer>();
    reviewer->send = false;
    reviewed_sampling_provider p(model, reviewer);
    std::string message;
    EXPECT_EQ(rejection_code([&] { p.create_message("git", hello_request(), {}); }, message),
              sampling_rejected_code);
    EXPECT_NE(message.find("rejected the sampling request"), std::string::npos) << message;
    EXPECT_TRUE(model->asked.empty());
}

TEST(host_sampling_review, refused_after_the_answer_is_withheld) {
    auto model = std::make_shared<echo_model>();
    auto reviewer = std::make_shared<scripted_reviewer>();
    reviewer->give = false;
    reviewed_sampling_provider p(model, reviewer);
    std::string message;
    EXPECT_EQ(rejection_code([&] { p.create_message("git", hello_request(), {}); }, message), -1);
    EXPECT_NE(message.find("rejected the model's answer"), std::string::npos) << message;
    EXPECT_EQ(model->asked.size(), 1u);
}

TEST(host_sampling_review, a_request_withdrawn_during_the_review_never_reaches_the_model) {
    auto model = std::make_shared<echo_model>();
    mcp::cancellation_source withdraw;
    // The server cancels while the user is still looking at its request.
    struct withdrawing_reviewer : scripted_reviewer {
        mcp::cancellation_source* source = nullptr;
        std::optional<mcp::create_message_request> review_request(const std::string& server,
                                                                  mcp::create_message_request r) override {
            source->cancel("the server gave up");
            return scripted_reviewer::review_request(server, std::move(r));
        }
    };
    auto withdrawing = std::make_shared<withdrawing_reviewer>();
    withdrawing->source = &withdraw;
    reviewed_sampling_provider p(model, withdrawing);
    std::string message;
    EXPECT_EQ(
        rejection_code([&] { p.create_message("git", hello_request(), {.cancellation = withdraw.token()}); },
                       message),
        mcp::error_code::request_cancelled);
    EXPECT_NE(message.find("withdrew"), std::string::npos) << message;
    EXPECT_TRUE(model->asked.empty());
    EXPECT_EQ(withdrawing->seen, (std::vector<std::string>{"request from git"}));
}

TEST(host_sampling_review, needs_a_provider_and_a_reviewer) {
    EXPECT_THROW(reviewed_sampling_provider(nullptr, std::make_shared<scripted_reviewer>()),
                 std::invalid_argument);
    EXPECT_THROW(reviewed_sampling_provider(std::make_shared<echo_model>(), nullptr), std::invalid_argument);
}

} // namespace
