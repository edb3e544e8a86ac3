// mcp::client against a real mcp::server over the in-memory transport pair: tools (progress,
// structured output, tools that call back into the client), resources (templates,
// subscriptions), prompts, completion, logging levels, concurrency and re-entrancy. Every test
// runs in both eras: initialize (2025-11-25) and stateless (2026-07-28, where the tools that
// call back into the client do it through input_required rounds, and notifications come on a
// subscriptions/listen stream); the few era-specific outcomes say so.
// (tests/integration/client_server_test.cpp runs the same pair over more transports and
// revisions with schema checks; this one checks behaviour in detail.)
#include <mcp/client/client.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include "support/eventually.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace std::chrono_literals;
using mcp::revision;
using mcp::json::object;

namespace {

object obj_schema(object props = {}) {
    return object{{"type", "object"}, {"properties", std::move(props)}};
}

using mcp::test::eventually;

struct end_to_end : ::testing::TestWithParam<revision> {
    mcp::server server{mcp::server_options{.info = {.name = "e2e", .version = "1"}, .page_size = 2}};
    mcp::client client{
        mcp::client_options{.info = {.name = "e2e-client", .version = "1"}, .protocol_version = GetParam()}};
    bool stateless() const { return GetParam() == revision::v2026_07_28; }

    void SetUp() override {
        server.add_tool({.name = "echo", .input_schema = obj_schema({{"text", {{"type", "string"}}}})},
                        [](const object& a, mcp::context&) {
                            return mcp::call_tool_result{
                                .content = {mcp::text(std::string(a.at("text").as_string()))}};
                        });
        server.add_tool({.name = "steps", .input_schema = obj_schema()},
                        [](const object&, mcp::context& ctx) {
                            for (int i = 1; i <= 4; ++i) ctx.progress(i, 4, "step " + std::to_string(i));
                            return mcp::call_tool_result{.content = {mcp::text("done")}};
                        });
        server.add_tool({.name = "chatty", .input_schema = obj_schema()},
                        [](const object&, mcp::context& ctx) {
                            for (auto l : {mcp::logging_level::debug, mcp::logging_level::info,
                                           mcp::logging_level::warning, mcp::logging_level::error})
                                ctx.log(l, mcp::json::value(mcp::to_string(l)), "chatty");
                            return mcp::call_tool_result{.content = {mcp::text("logged")}};
                        });
        server.add_tool({.name = "sum",
                         .input_schema = obj_schema(),
                         .output_schema = obj_schema({{"sum", {{"type", "number"}}}})},
                        [](const object& a, mcp::context&) {
                            object sc{{"sum", *mcp::find_number(a, "a") + *mcp::find_number(a, "b")}};
                            return mcp::call_tool_result{.content = {mcp::text(mcp::to_json(sc))},
                                                         .structured_content = sc};
                        });
        // Breaks its own outputSchema: the client must notice.
        server.add_tool({.name = "liar",
                         .input_schema = obj_schema(),
                         .output_schema = obj_schema({{"sum", {{"type", "number"}}}})},
                        [](const object&, mcp::context&) {
                            return mcp::call_tool_result{.content = {mcp::text("x")},
                                                         .structured_content = object{{"sum", "many"}}};
                        });
        server.add_tool({.name = "ask", .input_schema = obj_schema()}, [](const object&, mcp::context& ctx) {
            mcp::create_message_request req;
            req.messages.push_back({.role = mcp::role::user, .content = {mcp::text_content{.text = "2+2?"}}});
            req.max_tokens = 5;
            std::string out = "model=" + ctx.sample(req).model;
            auto answer = ctx.elicit("name?", obj_schema({{"name", {{"type", "string"}}}}));
            out += " action=" + std::string(mcp::to_string(answer.action));
            if (answer.content) out += " name=" + std::string(answer.content->at("name").as_string());
            for (const auto& r : ctx.roots()) out += " root=" + r.uri;
            return mcp::call_tool_result{.content = {mcp::text(out)}};
        });
        server.add_resource({.uri = "mem://a", .name = "a", .mime_type = "text/plain"},
                            [](const std::string& uri, mcp::context&) {
                                return mcp::read_resource_result{
                                    .contents = {mcp::text_resource_contents{.uri = uri, .text = "A"}}};
                            });
        server.add_resource_template(
            {.uri_template = "mem://items/{id}", .name = "item"},
            [](const std::string& uri, const std::map<std::string, std::string>& v, mcp::context&) {
                return mcp::read_resource_result{
                    .contents = {mcp::text_resource_contents{.uri = uri, .text = "item " + v.at("id")}}};
            });
        server.add_prompt(
            {.name = "greet", .arguments = {{.name = "who", .required = true}}},
            [](const std::map<std::string, std::string>& a, mcp::context&) {
                return mcp::get_prompt_result{
                    .messages = {{.role = mcp::role::user, .content = mcp::text("hi " + a.at("who"))}}};
            },
            {{"who", [](const std::string&, const std::string& v, const std::map<std::string, std::string>&) {
                  mcp::complete_result r;
                  for (const char* n : {"ada", "alan", "grace"})
                      if (std::string(n).rfind(v, 0) == 0) r.values.emplace_back(n);
                  return r;
              }}});
    }

    void connect() {
        auto [a, b] = mcp::memory_transport::create_pair();
        server.connect(a);
        client.connect(b);
    }
};

TEST_P(end_to_end, handshake_and_tools) {
    connect();
    EXPECT_EQ(client.protocol_version(), GetParam());
    EXPECT_EQ(client.stateless(), stateless());
    EXPECT_EQ(client.discovery().has_value(), stateless());
    EXPECT_EQ(client.server().server_info.name, "e2e");
    ASSERT_TRUE(client.server().capabilities.tools);
    client.ping();
    auto tools = client.list_all_tools(); // page size 2: three pages
    EXPECT_EQ(tools.size(), 6u);
    EXPECT_EQ(*mcp::text_of(client.call_tool("echo", {{"text", "hi"}}).content.at(0)), "hi");
    EXPECT_EQ(client.call_tool("sum", {{"a", 1}, {"b", 2}}).structured_content->at("sum"), 3.0);
    try {
        client.call_tool("liar");
        ADD_FAILURE() << "a structuredContent that breaks the outputSchema was accepted";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
        EXPECT_NE(std::string(e.what()).find("liar"), std::string::npos);
    }
    // An unknown tool is a protocol error.
    EXPECT_THROW(client.call_tool("nope"), mcp::error);
}

TEST_P(end_to_end, progress_arrives_in_order_before_the_result) {
    connect();
    std::vector<double> seen;
    std::vector<std::string> messages;
    mcp::call_options o;
    o.on_progress = [&](const mcp::progress_update& u) {
        seen.push_back(u.progress);
        messages.push_back(u.message.value_or(""));
        EXPECT_EQ(u.total, 4);
    };
    EXPECT_EQ(*mcp::text_of(client.call_tool("steps", {}, o).content.at(0)), "done");
    EXPECT_EQ(seen, (std::vector<double>{1, 2, 3, 4}));
    EXPECT_EQ(messages.back(), "step 4");
}

TEST_P(end_to_end, a_tool_samples_elicits_and_lists_roots_through_the_client) {
    std::atomic<int> samples{0};
    client.set_sampling_handler([&](const mcp::create_message_request& r, mcp::request_context&) {
        ++samples;
        EXPECT_EQ(r.max_tokens, 5);
        return mcp::create_message_result{.content = {mcp::text_content{.text = "4"}}, .model = "m1"};
    });
    client.set_elicitation_handler([](const mcp::elicit_request& r, mcp::request_context&) {
        EXPECT_EQ(r.message, "name?");
        return mcp::elicit_result{.action = mcp::elicit_action::accept, .content = object{{"name", "Ada"}}};
    });
    client.set_roots({{.uri = "file:///work", .name = "work"}});
    connect();
    auto r = client.call_tool("ask");
    ASSERT_FALSE(r.is_error.value_or(false)) << *mcp::text_of(r.content.at(0));
    EXPECT_EQ(*mcp::text_of(r.content.at(0)), "model=m1 action=accept name=Ada root=file:///work");
    EXPECT_EQ(samples.load(), 1);
}

TEST_P(end_to_end, a_tool_that_needs_a_missing_client_capability_fails_cleanly) {
    connect(); // no handlers: the server must not send sampling/createMessage
    if (!stateless()) {
        auto r = client.call_tool("ask");
        EXPECT_TRUE(r.is_error.value_or(false));
        return;
    }
    // 2026-07-28: the server refuses the call itself (MissingRequiredClientCapabilityError).
    try {
        client.call_tool("ask");
        ADD_FAILURE() << "no error";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::missing_required_client_capability) << e.what();
        EXPECT_NE(std::string(e.what()).find("sampling"), std::string::npos) << e.what();
    }
}

TEST_P(end_to_end, a_sampling_handler_may_call_the_server_again) {
    client.set_sampling_handler([&](const mcp::create_message_request&, mcp::request_context&) {
        auto n = client.list_all_tools().size();
        auto echoed = client.call_tool("echo", {{"text", "inner"}});
        return mcp::create_message_result{.content = {mcp::text_content{.text = "x"}},
                                          .model = std::to_string(n) + *mcp::text_of(echoed.content.at(0))};
    });
    client.set_elicitation_handler(
        [](const mcp::elicit_request&, mcp::request_context&) { return mcp::elicit_result{}; });
    client.set_roots({});
    connect();
    auto r = client.call_tool("ask");
    EXPECT_EQ(*mcp::text_of(r.content.at(0)), "model=6inner action=cancel");
}

TEST_P(end_to_end, resources_templates_and_subscriptions) {
    std::mutex mu;
    std::vector<std::string> updated;
    client.on_resource_updated([&](const std::string& uri) {
        std::lock_guard l(mu);
        updated.push_back(uri);
    });
    connect();
    EXPECT_EQ(client.list_all_resources().size(), 1u);
    EXPECT_EQ(client.list_all_resource_templates().size(), 1u);
    EXPECT_EQ(std::get<mcp::text_resource_contents>(client.read_resource("mem://a").contents.at(0)).text,
              "A");
    EXPECT_EQ(
        std::get<mcp::text_resource_contents>(client.read_resource("mem://items/42").contents.at(0)).text,
        "item 42");
    try {
        client.read_resource("mem://missing");
        ADD_FAILURE();
    } catch (const mcp::error& e) {
        // 2026-07-28 reports an unknown resource as invalid params.
        EXPECT_EQ(e.code(),
                  stateless() ? mcp::error_code::invalid_params : mcp::error_code::resource_not_found);
    }
    client.subscribe("mem://a");
    server.notify_resource_updated("mem://a");
    EXPECT_TRUE(eventually([&] {
        std::lock_guard l(mu);
        return !updated.empty();
    }));
    client.unsubscribe("mem://a");
    server.notify_resource_updated("mem://a");
    client.ping(); // let anything in flight arrive
    std::this_thread::sleep_for(20ms);
    std::lock_guard l(mu);
    EXPECT_EQ(updated, std::vector<std::string>{"mem://a"});
}

TEST_P(end_to_end, prompts_and_completion) {
    connect();
    auto prompts = client.list_all_prompts();
    ASSERT_EQ(prompts.size(), 1u);
    ASSERT_EQ(prompts[0].arguments.size(), 1u);
    EXPECT_EQ(*mcp::text_of(client.get_prompt("greet", {{"who", "Ada"}}).messages.at(0).content), "hi Ada");
    try {
        client.get_prompt("greet");
        ADD_FAILURE() << "a missing required argument was accepted";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
        EXPECT_NE(std::string(e.what()).find("who"), std::string::npos) << e.what();
    }
    try {
        client.get_prompt("nope");
        ADD_FAILURE();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
    }
    auto c = client.complete(
        {.ref = mcp::prompt_reference{.name = "greet"}, .argument = {.name = "who", .value = "a"}});
    EXPECT_EQ(c.values, (std::vector<std::string>{"ada", "alan"}));
}

TEST_P(end_to_end, the_logging_level_filters_messages) {
    std::mutex mu;
    std::vector<std::string> seen;
    client.on_log_message([&](const mcp::logging_message_notification& n) {
        std::lock_guard l(mu);
        seen.push_back(std::string(mcp::to_string(n.level)));
        EXPECT_EQ(n.logger, "chatty");
    });
    connect();
    // With progress asked for, the result is delivered after every notification sent before it.
    mcp::call_options ordered;
    ordered.on_progress = [](const mcp::progress_update&) {};
    client.set_logging_level(mcp::logging_level::warning);
    client.call_tool("chatty", {}, ordered);
    {
        std::lock_guard l(mu);
        EXPECT_EQ(seen, (std::vector<std::string>{"warning", "error"}));
        seen.clear();
    }
    client.set_logging_level(mcp::logging_level::debug);
    client.call_tool("chatty", {}, ordered);
    std::lock_guard l(mu);
    EXPECT_EQ(seen, (std::vector<std::string>{"debug", "info", "warning", "error"}));
}

TEST_P(end_to_end, list_changed_reaches_the_client) {
    std::atomic<int> changed{0};
    client.on_tools_list_changed([&] { ++changed; });
    connect();
    server.add_tool({.name = "late", .input_schema = obj_schema()},
                    [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    EXPECT_TRUE(eventually([&] { return changed > 0; }));
    EXPECT_EQ(client.list_all_tools().size(), 7u);
}

TEST_P(end_to_end, roots_list_changed_reaches_the_server_of_the_initialize_era_only) {
    std::atomic<int> changed{0};
    server.on_roots_list_changed([&](mcp::server_session&) { ++changed; });
    client.set_roots({{.uri = "file:///a"}});
    connect();
    client.notify_roots_changed();
    if (!stateless()) {
        EXPECT_TRUE(eventually([&] { return changed > 0; }));
        return;
    }
    // 2026-07-28 has no notifications/roots/list_changed: nothing is sent (a server reads the
    // roots from each request's input rounds). A call after it proves the pipe is drained.
    client.ping();
    EXPECT_EQ(changed.load(), 0);
}

TEST_P(end_to_end, many_threads_call_at_once) {
    connect();
    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 25; ++i) {
                auto text = "t" + std::to_string(t) + "-" + std::to_string(i);
                if (*mcp::text_of(client.call_tool("echo", {{"text", text}}).content.at(0)) == text) ++ok;
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(ok.load(), 200);
}

TEST_P(end_to_end, an_older_server_revision_is_negotiated) {
    mcp::server old{
        mcp::server_options{.info = {.name = "old", .version = "1"}, .revisions = {revision::v2025_03_26}}};
    old.add_tool({.name = "echo", .input_schema = obj_schema()}, [](const object&, mcp::context&) {
        return mcp::call_tool_result{.content = {mcp::text("old")}};
    });
    auto [a, b] = mcp::memory_transport::create_pair();
    old.connect(a);
    client.connect(b);
    EXPECT_EQ(client.protocol_version(), revision::v2025_03_26);
    EXPECT_EQ(*mcp::text_of(client.call_tool("echo").content.at(0)), "old");
}

TEST_P(end_to_end, closing_is_seen_by_both_sides) {
    std::promise<void> closed;
    client.on_close([&] { closed.set_value(); });
    connect();
    ASSERT_EQ(server.sessions().size(), 1u);
    client.close();
    EXPECT_EQ(closed.get_future().wait_for(2s), std::future_status::ready);
    EXPECT_TRUE(eventually([&] { return server.sessions().empty(); }));
    EXPECT_THROW(client.ping(), mcp::error);
}

INSTANTIATE_TEST_SUITE_P(eras, end_to_end, ::testing::Values(revision::v2025_11_25, revision::v2026_07_28),
                         [](const ::testing::TestParamInfo<revision>& i) {
                             return std::string(i.param == revision::v2026_07_28 ? "stateless"
                                                                                 : "initialize");
                         });

} // namespace
