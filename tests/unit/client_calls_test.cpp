// mcp::client wire tests: the exact request of every call, result parsing, pagination,
// timeouts, cancellation, progress and concurrent calls. (Output-schema checks:
// client_output_validation_test.cpp.)
#include "client_wire_fixture.hpp"

#include <atomic>
#include <thread>

using namespace std::chrono_literals;
using mcp::json::object;
using mcp::test::client_wire;

namespace {

std::string req(int id, std::string_view method, std::string_view params = {}) {
    std::string s =
        R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + std::string(method) + '"';
    if (!params.empty()) s += R"(,"params":)" + std::string(params);
    return s + "}";
}

struct calls : client_wire {
    void SetUp() override {
        make();
        connect();
    }
};

TEST_F(calls, ping) {
    exchange([&] { c->ping(); }, req(2, "ping"), "{}");
}

TEST_F(calls, list_tools_parses_the_page) {
    auto page = exchange(
        [&] { return c->list_tools(); }, req(2, "tools/list"),
        R"({"tools":[{"name":"echo","title":"Echo","description":"d","inputSchema":{"type":"object"},)"
        R"("annotations":{"readOnlyHint":true}}],"nextCursor":"n1"})");
    ASSERT_EQ(page.tools.size(), 1u);
    EXPECT_EQ(page.tools[0].name, "echo");
    EXPECT_EQ(page.tools[0].title, "Echo");
    EXPECT_EQ(page.tools[0].annotations->read_only_hint, true);
    EXPECT_EQ(page.next_cursor, "n1");
    exchange([&] { return c->list_tools("n1"); }, req(3, "tools/list", R"({"cursor":"n1"})"),
             R"({"tools":[]})");
}

TEST_F(calls, list_all_tools_follows_three_pages) {
    auto all = std::async(std::launch::async, [&] { return c->list_all_tools(); });
    answer(req(2, "tools/list"),
           R"({"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"p2"})");
    answer(
        req(3, "tools/list", R"({"cursor":"p2"})"),
        R"({"tools":[{"name":"b","inputSchema":{"type":"object"}},{"name":"c","inputSchema":{"type":"object"}}],"nextCursor":"p3"})");
    answer(req(4, "tools/list", R"({"cursor":"p3"})"),
           R"({"tools":[{"name":"d","inputSchema":{"type":"object"}}]})");
    auto tools = all.get();
    ASSERT_EQ(tools.size(), 4u);
    EXPECT_EQ(tools[0].name + tools[1].name + tools[2].name + tools[3].name, "abcd");
    EXPECT_FALSE(wire->next(20ms));
}

TEST_F(calls, a_repeated_cursor_stops_the_walk) {
    auto all = std::async(std::launch::async, [&] { return c->list_all_prompts(); });
    answer(req(2, "prompts/list"), R"({"prompts":[{"name":"a"}],"nextCursor":"x"})");
    answer(req(3, "prompts/list", R"({"cursor":"x"})"), R"({"prompts":[{"name":"b"}],"nextCursor":"y"})");
    answer(req(4, "prompts/list", R"({"cursor":"y"})"), R"({"prompts":[{"name":"c"}],"nextCursor":"x"})");
    try {
        all.get();
        ADD_FAILURE() << "the walk did not stop";
    } catch (const mcp::error& e) {
        EXPECT_NE(std::string(e.what()).find("cursor"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(wire->next(20ms));
}

// client_options::listing: each bound stops the walk with an error naming it and the numbers.
struct bounded_calls : client_wire {
    void SetUp() override {
        opts.listing = {.max_pages = 3, .max_items = 4, .max_bytes = 400, .max_cursor_size = 8};
        make();
        connect();
    }
    static std::string bound_of(const mcp::error& e) {
        return std::string(e.data().at("bound").as_string());
    }
};

TEST_F(bounded_calls, a_fresh_cursor_on_every_page_stops_at_max_pages) {
    auto all = std::async(std::launch::async, [&] { return c->list_all_prompts(); });
    answer(req(2, "prompts/list"), R"({"prompts":[],"nextCursor":"a"})");
    answer(req(3, "prompts/list", R"({"cursor":"a"})"), R"({"prompts":[],"nextCursor":"b"})");
    answer(req(4, "prompts/list", R"({"cursor":"b"})"), R"({"prompts":[],"nextCursor":"c"})");
    try {
        all.get();
        ADD_FAILURE() << "the walk did not stop";
    } catch (const mcp::error& e) {
        EXPECT_EQ(bound_of(e), "max_pages");
        EXPECT_EQ(e.data().at("limit"), 3);
        EXPECT_NE(std::string(e.what()).find("listing prompts: the server still had more pages after 3"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("max_pages"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(wire->next(20ms)); // the fourth page is never asked for
}

TEST_F(bounded_calls, too_many_items_stop_the_walk) {
    auto all = std::async(std::launch::async, [&] { return c->list_all_prompts(); });
    answer(req(2, "prompts/list"), R"({"prompts":[{"name":"a"},{"name":"b"}],"nextCursor":"x"})");
    answer(req(3, "prompts/list", R"({"cursor":"x"})"),
           R"({"prompts":[{"name":"c"},{"name":"d"},{"name":"e"}]})");
    try {
        all.get();
        ADD_FAILURE() << "the walk did not stop";
    } catch (const mcp::error& e) {
        EXPECT_EQ(bound_of(e), "max_items");
        EXPECT_EQ(e.data().at("value"), 5);
        EXPECT_NE(std::string(e.what()).find("the server sent 5 items (in 2 pages), more than the 4 "
                                             "client_options::listing.max_items allows"),
                  std::string::npos)
            << e.what();
    }
}

TEST_F(bounded_calls, too_many_bytes_stop_the_walk) {
    const std::string big(300, 'd');
    auto all = std::async(std::launch::async, [&] { return c->list_all_resources(); });
    answer(req(2, "resources/list"),
           R"({"resources":[{"uri":"m://a","name":"a","description":")" + big + R"("}],"nextCursor":"x"})");
    answer(req(3, "resources/list", R"({"cursor":"x"})"),
           R"({"resources":[{"uri":"m://b","name":"b","description":")" + big + R"("}]})");
    try {
        all.get();
        ADD_FAILURE() << "the walk did not stop";
    } catch (const mcp::error& e) {
        EXPECT_EQ(bound_of(e), "max_bytes");
        EXPECT_GT(e.data().at("value").to_number<std::size_t>(), 400u);
        EXPECT_NE(std::string(e.what()).find("listing resources: the server's 2 pages hold"), std::string::npos)
            << e.what();
    }
}

TEST_F(bounded_calls, a_long_cursor_stops_the_walk_before_it_is_sent_back) {
    auto all = std::async(std::launch::async, [&] { return c->list_all_resource_templates(); });
    answer(req(2, "resources/templates/list"), R"({"resourceTemplates":[],"nextCursor":"123456789"})");
    try {
        all.get();
        ADD_FAILURE() << "the walk did not stop";
    } catch (const mcp::error& e) {
        EXPECT_EQ(bound_of(e), "max_cursor_size");
        EXPECT_NE(std::string(e.what()).find("listing resource templates: the server sent a nextCursor of 9 "
                                             "bytes, longer than the 8"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(wire->next(20ms));
}

TEST_F(bounded_calls, a_walk_within_the_bounds_and_single_pages_are_untouched) {
    auto all = std::async(std::launch::async, [&] { return c->list_all_tools(); });
    answer(req(2, "tools/list"), R"({"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"p"})");
    answer(req(3, "tools/list", R"({"cursor":"p"})"), R"({"tools":[{"name":"b","inputSchema":{"type":"object"}}]})");
    EXPECT_EQ(all.get().size(), 2u);
    // One page asked for by the caller is not a walk: only the message size bounds it.
    auto page = exchange([&] { return c->list_prompts(); }, req(4, "prompts/list"),
                         R"({"prompts":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e"}]})");
    EXPECT_EQ(page.prompts.size(), 5u);
}

TEST_F(calls, list_all_resources_and_templates) {
    auto r = std::async(std::launch::async, [&] { return c->list_all_resources(); });
    answer(req(2, "resources/list"), R"({"resources":[{"uri":"mem://a","name":"a"}],"nextCursor":"2"})");
    answer(req(3, "resources/list", R"({"cursor":"2"})"),
           R"({"resources":[{"uri":"mem://b","name":"b","mimeType":"text/plain","size":3}]})");
    auto res = r.get();
    ASSERT_EQ(res.size(), 2u);
    EXPECT_EQ(res[1].size, 3);
    auto t = exchange([&] { return c->list_all_resource_templates(); }, req(4, "resources/templates/list"),
                      R"({"resourceTemplates":[{"uriTemplate":"mem://items/{id}","name":"item"}]})");
    ASSERT_EQ(t.size(), 1u);
    EXPECT_EQ(t[0].uri_template, "mem://items/{id}");
}

TEST_F(calls, call_tool_request_and_result) {
    auto r = exchange(
        [&] {
            return c->call_tool("echo", {{"text", "hi"}});
        },
        req(2, "tools/call", R"({"name":"echo","arguments":{"text":"hi"}})"),
        R"({"content":[{"type":"text","text":"hi"}],"isError":false})");
    ASSERT_EQ(r.content.size(), 1u);
    EXPECT_EQ(*mcp::text_of(r.content[0]), "hi");
    EXPECT_EQ(r.is_error, false);
    auto e = exchange([&] { return c->call_tool("boom"); },
                      req(3, "tools/call", R"({"name":"boom","arguments":{}})"),
                      R"({"content":[{"type":"text","text":"it broke"}],"isError":true})");
    EXPECT_EQ(e.is_error, true);
}

TEST_F(calls, meta_is_merged_into_params) {
    mcp::call_options o;
    o.meta = {{"com.example/trace", "abc"}};
    exchange([&] { return c->read_resource("mem://a", o); },
             req(2, "resources/read", R"({"uri":"mem://a","_meta":{"com.example/trace":"abc"}})"),
             R"({"contents":[{"uri":"mem://a","text":"A"}]})");
    exchange([&] { c->ping(o); }, req(3, "ping", R"({"_meta":{"com.example/trace":"abc"}})"), "{}");
    // With progress, the token joins the caller's _meta members.
    o.on_progress = [](const mcp::progress_update&) {};
    exchange([&] { return c->call_tool("t", {}, o); },
             req(4, "tools/call",
                 R"({"name":"t","arguments":{},"_meta":{"com.example/trace":"abc","progressToken":4}})"),
             R"({"content":[]})");
}

TEST_F(calls, resources) {
    auto r = exchange(
        [&] { return c->read_resource("mem://a"); }, req(2, "resources/read", R"({"uri":"mem://a"})"),
        R"({"contents":[{"uri":"mem://a","mimeType":"text/plain","text":"A"},{"uri":"mem://b","blob":"AAE="}]})");
    ASSERT_EQ(r.contents.size(), 2u);
    EXPECT_EQ(std::get<mcp::text_resource_contents>(r.contents[0]).text, "A");
    EXPECT_TRUE(std::holds_alternative<mcp::blob_resource_contents>(r.contents[1]));
    exchange([&] { c->subscribe("mem://a"); }, req(3, "resources/subscribe", R"({"uri":"mem://a"})"), "{}");
    exchange([&] { c->unsubscribe("mem://a"); }, req(4, "resources/unsubscribe", R"({"uri":"mem://a"})"),
             "{}");
}

TEST_F(calls, prompts) {
    auto p = exchange(
        [&] {
            return c->get_prompt("greet", {{"who", "Ada"}});
        },
        req(2, "prompts/get", R"({"name":"greet","arguments":{"who":"Ada"}})"),
        R"({"description":"d","messages":[{"role":"user","content":{"type":"text","text":"hi Ada"}}]})");
    ASSERT_EQ(p.messages.size(), 1u);
    EXPECT_EQ(*mcp::text_of(p.messages[0].content), "hi Ada");
    EXPECT_EQ(p.description, "d");
    exchange([&] { return c->get_prompt("plain"); }, req(3, "prompts/get", R"({"name":"plain"})"),
             R"({"messages":[]})");
}

TEST_F(calls, completion) {
    mcp::complete_request cr{.ref = mcp::prompt_reference{.name = "greet"},
                             .argument = {.name = "who", .value = "a"}};
    cr.context_arguments = std::map<std::string, std::string>{{"lang", "en"}};
    auto r = exchange(
        [&] { return c->complete(cr); },
        req(2, "completion/complete",
            R"({"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"a"},"context":{"arguments":{"lang":"en"}}})"),
        R"({"completion":{"values":["ada","alan"],"total":2,"hasMore":false}})");
    EXPECT_EQ(r.values, (std::vector<std::string>{"ada", "alan"}));
    EXPECT_EQ(r.total, 2);
    mcp::complete_request rr{.ref = mcp::resource_template_reference{.uri = "mem://items/{id}"},
                             .argument = {.name = "id", .value = "1"}};
    exchange(
        [&] { return c->complete(rr); },
        req(3, "completion/complete",
            R"({"ref":{"type":"ref/resource","uri":"mem://items/{id}"},"argument":{"name":"id","value":"1"}})"),
        R"({"completion":{"values":[]}})");
}

TEST_F(calls, logging_level) {
    exchange([&] { c->set_logging_level(mcp::logging_level::warning); },
             req(2, "logging/setLevel", R"({"level":"warning"})"), "{}");
}

TEST_F(calls, a_server_error_keeps_code_message_and_data) {
    auto f = std::async(std::launch::async, [&] { return c->read_resource("mem://none"); });
    ASSERT_EQ(wire->next().value_or(""), req(2, "resources/read", R"({"uri":"mem://none"})"));
    wire->inject(
        R"({"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"mem://none"}}})");
    try {
        f.get();
        ADD_FAILURE();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), -32002);
        EXPECT_STREQ(e.what(), "Resource not found");
        EXPECT_EQ(e.data().at("uri"), "mem://none");
    }
}

TEST_F(calls, a_malformed_result_is_invalid_params) {
    auto f = std::async(std::launch::async, [&] { return c->list_tools(); });
    answer(req(2, "tools/list"), R"({"tools":[{"description":"no name"}]})");
    try {
        f.get();
        ADD_FAILURE();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
    }
}

// ------------------------------------------------------------------ timeouts, cancellation, progress

TEST_F(calls, a_timeout_sends_notifications_cancelled) {
    mcp::call_options o;
    o.timeout = 50ms;
    auto f = std::async(std::launch::async, [&] { return c->call_tool("slow", {}, o); });
    EXPECT_EQ(wire->next().value_or(""), req(2, "tools/call", R"({"name":"slow","arguments":{}})"));
    auto cancelled = wire->next_json();
    EXPECT_EQ(cancelled.at("method"), "notifications/cancelled");
    EXPECT_EQ(cancelled.at("params").at("requestId"), 2);
    try {
        f.get();
        ADD_FAILURE();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_timeout);
    }
    // A late answer is ignored, and the client goes on.
    wire->inject(R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})");
    exchange([&] { c->ping(); }, req(3, "ping"), "{}");
}

TEST_F(calls, the_client_default_timeout_applies) {
    wire = std::make_shared<mcp::test::scripted_transport>();
    opts.timeout = 40ms;
    make();
    connect();
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_THROW(c->ping(), mcp::error);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
    EXPECT_EQ(wire->next().value_or(""), req(2, "ping"));
    EXPECT_EQ(wire->next_json().at("method"), "notifications/cancelled");
}

TEST_F(calls, cancelling_sends_notifications_cancelled_with_the_reason) {
    mcp::cancellation_source cancel;
    mcp::call_options o;
    o.cancel = cancel.token();
    auto f = std::async(std::launch::async, [&] { return c->call_tool("slow", {}, o); });
    ASSERT_TRUE(wire->next());
    cancel.cancel("user pressed stop");
    EXPECT_EQ(
        wire->next().value_or(""),
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"user pressed stop"}})");
    try {
        f.get();
        ADD_FAILURE();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_cancelled);
    }
}

TEST_F(calls, progress_reaches_the_callback_before_the_result) {
    std::vector<double> seen;
    std::optional<std::string> last_message;
    mcp::call_options o;
    o.on_progress = [&](const mcp::progress_update& u) {
        seen.push_back(u.progress);
        last_message = u.message;
    };
    auto f = std::async(std::launch::async, [&] { return c->call_tool("long", {}, o); });
    EXPECT_EQ(wire->next().value_or(""),
              req(2, "tools/call", R"({"name":"long","arguments":{},"_meta":{"progressToken":2}})"));
    wire->inject(
        R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1,"total":3}})");
    wire->inject(
        R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":2,"total":3,"message":"half"}})");
    wire->inject(R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})");
    f.get();
    EXPECT_EQ(seen, (std::vector<double>{1, 2}));
    EXPECT_EQ(last_message, "half");
}

TEST_F(calls, concurrent_calls_get_their_own_results) {
    constexpr int n = 8;
    std::vector<std::future<mcp::read_resource_result>> futures;
    for (int i = 0; i < n; ++i)
        futures.push_back(std::async(std::launch::async,
                                     [&, i] { return c->read_resource("mem://" + std::to_string(i)); }));
    std::vector<mcp::json::value> requests;
    for (int i = 0; i < n; ++i) requests.push_back(wire->next_json());
    // Answer in reverse order; each caller gets the answer to its own request.
    for (auto it = requests.rbegin(); it != requests.rend(); ++it) {
        auto uri = mcp::to_json(it->at("params").at("uri"));
        wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(it->at("id")) +
                     R"(,"result":{"contents":[{"uri":)" + uri + R"(,"text":)" + uri + "}]}}");
    }
    for (int i = 0; i < n; ++i)
        EXPECT_EQ(std::get<mcp::text_resource_contents>(futures[i].get().contents.at(0)).text,
                  "mem://" + std::to_string(i));
}

TEST_F(calls, closing_fails_pending_calls) {
    auto f = std::async(std::launch::async, [&] { return c->list_tools(); });
    ASSERT_TRUE(wire->next());
    c->close();
    try {
        f.get();
        ADD_FAILURE();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::connection_closed);
    }
}

} // namespace
