// The whole client/server suite, end to end, over each transport (in-memory pair and the
// example Unix-socket transport) and in each revision: the initialize-era ones and the stateless
// 2026-07-28 (server/discover, _meta on every request, input_required rounds for the tool that
// asks the client, the subscriptions/listen stream). Every message either side emits is
// recorded and validated against that revision's official schema.
#include <mcp/client/client.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include "../../examples/unix_socket_transport.hpp"
#include "support/wire_schema.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <thread>

using namespace std::chrono_literals;
using mcp::revision;
using mcp::json::object;

namespace {

object obj_schema(object props = {}) {
    return object{{"type", "object"}, {"properties", std::move(props)}};
}

void build_server(mcp::server& s) {
    s.add_tool({.name = "echo", .input_schema = obj_schema({{"text", {{"type", "string"}}}})},
               [](const object& a, mcp::context&) {
                   return mcp::call_tool_result{
                       .content = {mcp::text(std::string(a.at("text").as_string()))}};
               });
    s.add_tool({.name = "add",
                .input_schema = obj_schema(),
                .output_schema = obj_schema({{"sum", {{"type", "number"}}}})},
               [](const object& a, mcp::context&) {
                   object sc{{"sum", *mcp::find_number(a, "a") + *mcp::find_number(a, "b")}};
                   return mcp::call_tool_result{.content = {mcp::text(mcp::to_json(sc))},
                                                .structured_content = sc};
               });
    s.add_tool({.name = "progress", .input_schema = obj_schema()}, [](const object&, mcp::context& ctx) {
        for (int i = 1; i <= 3; ++i) ctx.progress(i, 3, "step");
        ctx.log(mcp::logging_level::info, "progress done");
        return mcp::call_tool_result{.content = {mcp::text("ok")}};
    });
    s.add_tool({.name = "slow", .input_schema = obj_schema()}, [](const object&, mcp::context& ctx) {
        while (!ctx.cancelled()) std::this_thread::sleep_for(1ms);
        return mcp::call_tool_result{.content = {mcp::text("cancelled")}};
    });
    s.add_tool({.name = "ask", .input_schema = obj_schema()}, [](const object&, mcp::context& ctx) {
        mcp::create_message_request req;
        req.messages.push_back({.role = mcp::role::user, .content = {mcp::text_content{.text = "q"}}});
        req.max_tokens = 5;
        std::string out = ctx.sample(req).model;
        if (ctx.protocol_version() >= revision::v2025_06_18)
            out += " " + std::string(mcp::to_string(
                             ctx.elicit("name?", obj_schema({{"name", {{"type", "string"}}}})).action));
        for (const auto& r : ctx.roots()) out += " " + r.uri;
        return mcp::call_tool_result{.content = {mcp::text(out)}};
    });
    s.add_resource({.uri = "mem://a", .name = "a", .mime_type = "text/plain"}, [](const std::string& uri,
                                                                                  mcp::context&) {
        return mcp::read_resource_result{.contents = {mcp::text_resource_contents{.uri = uri, .text = "A"}}};
    });
    s.add_resource_template(
        {.uri_template = "mem://items/{id}", .name = "item"},
        [](const std::string& uri, const std::map<std::string, std::string>& v, mcp::context&) {
            return mcp::read_resource_result{
                .contents = {mcp::text_resource_contents{.uri = uri, .text = v.at("id")}}};
        });
    s.add_prompt(
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

enum class kind { memory, unix_socket };

struct param {
    kind k;
    revision r;
};

class suite : public ::testing::TestWithParam<param> {};

TEST_P(suite, everything_works_and_every_message_conforms) {
    const auto [k, rev] = GetParam();
    mcp::test::wire_recorder rec(rev);
    auto trace_side = [&](int side) {
        return [&rec, side](const mcp::trace_event& e) {
            if (e.dir == mcp::trace_event::direction::out) rec.record(side, e.message);
        };
    };

    mcp::server_options so{.info = {.name = "suite", .version = "1"}, .page_size = 2};
    so.session.trace = true;
    so.session.trace_sink = trace_side(0);
    mcp::server server(so);
    build_server(server);

    mcp::client_options co{.info = {.name = "suite-client", .version = "1"}, .protocol_version = rev};
    co.session.trace = true;
    co.session.trace_sink = trace_side(1);
    mcp::client client(co);
    std::atomic<int> list_changed{0}, updated{0}, logs{0};
    client.set_sampling_handler([](const mcp::create_message_request&, mcp::request_context&) {
        return mcp::create_message_result{
            .role = mcp::role::assistant, .content = {mcp::text_content{.text = "4"}}, .model = "m1"};
    });
    client.set_elicitation_handler([](const mcp::elicit_request&, mcp::request_context&) {
        return mcp::elicit_result{.action = mcp::elicit_action::accept, .content = object{{"name", "Ada"}}};
    });
    client.set_roots({{.uri = "file:///tmp", .name = "tmp"}});
    client.on_tools_list_changed([&] { ++list_changed; });
    client.on_resource_updated([&](const std::string&) { ++updated; });
    client.on_log_message([&](const mcp::logging_message_notification&) { ++logs; });

    std::unique_ptr<example::unix_listener> listener;
    if (k == kind::memory) {
        auto [a, b] = mcp::memory_transport::create_pair();
        server.connect(a);
        client.connect(b);
    } else {
        const auto path =
            (std::filesystem::temp_directory_path() / ("mcpxx-suite-" + std::to_string(::getpid()) + ".sock"))
                .string();
        listener = std::make_unique<example::unix_listener>(path);
        std::thread accept([&] { server.connect(listener->accept_one()); });
        client.connect(example::unix_connect(path));
        accept.join();
    }

    EXPECT_EQ(client.protocol_version(), rev);
    EXPECT_EQ(client.stateless(), !mcp::is_initialize_era(rev));
    client.ping();
    EXPECT_EQ(client.list_all_tools().size(), 5u); // three pages of two
    auto echo = client.call_tool("echo", {{"text", "hi"}});
    ASSERT_TRUE(mcp::text_of(echo.content.at(0)));
    EXPECT_EQ(*mcp::text_of(echo.content.at(0)), "hi");
    auto sum = client.call_tool("add", {{"a", 1}, {"b", 2}});
    if (rev >= revision::v2025_06_18) {
        EXPECT_EQ(sum.structured_content->at("sum"), 3.0);
    }

    client.set_logging_level(mcp::logging_level::debug);
    std::atomic<int> progress{0};
    mcp::call_options po;
    po.on_progress = [&](const mcp::progress_update&) { ++progress; };
    client.call_tool("progress", {}, po);
    EXPECT_EQ(progress.load(), 3);

    mcp::cancellation_source cancel;
    mcp::call_options co2;
    co2.cancel = cancel.token();
    std::thread canceller([&] {
        std::this_thread::sleep_for(50ms);
        cancel.cancel("enough");
    });
    EXPECT_THROW(client.call_tool("slow", {}, co2), mcp::error);
    canceller.join();

    auto asked = client.call_tool("ask");
    ASSERT_FALSE(asked.is_error.value_or(false)) << *mcp::text_of(asked.content.at(0));
    EXPECT_NE(mcp::text_of(asked.content.at(0))->find("m1"), std::string::npos);
    EXPECT_NE(mcp::text_of(asked.content.at(0))->find("file:///tmp"), std::string::npos);

    EXPECT_EQ(client.list_all_resources().size(), 1u);
    EXPECT_EQ(client.list_all_resource_templates().size(), 1u);
    EXPECT_EQ(
        std::get<mcp::text_resource_contents>(client.read_resource("mem://items/7").contents.at(0)).text,
        "7");
    try {
        client.read_resource("mem://missing");
        ADD_FAILURE() << "expected resource not found";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::is_initialize_era(rev) ? mcp::error_code::resource_not_found
                                                        : mcp::error_code::invalid_params);
    }
    client.subscribe("mem://a");
    server.notify_resource_updated("mem://a");
    client.unsubscribe("mem://a");

    EXPECT_EQ(client.list_all_prompts().size(), 1u);
    EXPECT_EQ(*mcp::text_of(client.get_prompt("greet", {{"who", "Ada"}}).messages.at(0).content), "hi Ada");
    EXPECT_THROW(client.get_prompt("greet"), mcp::error);
    auto c = client.complete(
        {.ref = mcp::prompt_reference{.name = "greet"}, .argument = {.name = "who", .value = "a"}});
    EXPECT_EQ(c.values, (std::vector<std::string>{"ada", "alan"}));

    server.add_tool({.name = "late", .input_schema = obj_schema()},
                    [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    for (int i = 0; i < 200 && (list_changed == 0 || updated == 0 || logs == 0); ++i)
        std::this_thread::sleep_for(5ms);
    EXPECT_GE(list_changed.load(), 1);
    EXPECT_EQ(updated.load(), 1);
    EXPECT_GE(logs.load(), 1);

    client.close();
    for (const auto& p : rec.problems()) ADD_FAILURE() << p;
    EXPECT_GT(rec.messages(), 40u);
    const auto methods = rec.methods();
    auto sent = [&](std::string_view m) {
        return std::find(methods.begin(), methods.end(), m) != methods.end();
    };
    if (mcp::is_initialize_era(rev)) {
        EXPECT_TRUE(sent("initialize"));
        EXPECT_FALSE(sent("server/discover"));
    } else {
        // No handshake, no removed method: the era's own requests instead.
        for (const char* m :
             {"initialize", "notifications/initialized", "ping", "logging/setLevel", "resources/subscribe",
              "resources/unsubscribe", "sampling/createMessage", "elicitation/create", "roots/list"})
            EXPECT_FALSE(sent(m)) << m;
        for (const char* m :
             {"server/discover", "subscriptions/listen", "notifications/subscriptions/acknowledged",
              "notifications/resources/updated", "notifications/tools/list_changed"})
            EXPECT_TRUE(sent(m)) << m;
    }
}

std::string name_of(const ::testing::TestParamInfo<param>& info) {
    std::string s = (info.param.k == kind::memory ? "memory_" : "unix_socket_") +
                    std::string(mcp::to_string(info.param.r));
    for (auto& ch : s)
        if (ch == '-') ch = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(transports_and_revisions, suite,
                         ::testing::Values(param{kind::memory, revision::v2024_11_05},
                                           param{kind::memory, revision::v2025_03_26},
                                           param{kind::memory, revision::v2025_06_18},
                                           param{kind::memory, revision::v2025_11_25},
                                           param{kind::memory, revision::v2026_07_28},
                                           param{kind::unix_socket, revision::v2025_06_18},
                                           param{kind::unix_socket, revision::v2025_11_25},
                                           param{kind::unix_socket, revision::v2026_07_28}),
                         name_of);

} // namespace
