// mcp::host::gateway in front of real server processes (everything_server over stdio), served
// over Streamable HTTP on a loopback port, driven by an mcp::client of the initialize era over
// the HTTP client transport: the combined catalogue and everything forwarded both ways.
#include "support/child_server.hpp"
#include "support/eventually.hpp"
#include "support/gateway_fixture.hpp"
#include "support/http_backend.hpp"
#include "support/switchable_server.hpp"

#include <mcp/host/manager.hpp>

#include <gmock/gmock.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>

namespace {

using namespace mcp::test;
using mcp::json::object;
using testing::HasSubstr;
using testing::Not;

bool has_tool(const std::vector<mcp::tool>& tools, const std::string& name) {
    for (const auto& t : tools)
        if (t.name == name) return true;
    return false;
}

TEST(Gateway, CombinesTheCatalogueUnderQualifiedNames) {
    gateway_fixture f(
        {stdio_server("everything", "everything_server"), stdio_server("basket", "basket_server")});
    auto c = f.connect();
    EXPECT_EQ(c->server().server_info.name, "mcpxx-gateway");
    const auto tools = c->list_all_tools();
    EXPECT_TRUE(has_tool(tools, "everything__echo"));
    EXPECT_TRUE(has_tool(tools, "everything__add"));
    EXPECT_TRUE(has_tool(tools, "basket__create_basket"));
    EXPECT_FALSE(has_tool(tools, "echo"));
    // Schemas travel as the server declared them.
    for (const auto& t : tools)
        if (t.name == "everything__add") {
            ASSERT_TRUE(t.output_schema);
            EXPECT_TRUE(t.annotations && t.annotations->read_only_hint.value_or(false));
        }

    auto r = c->call_tool("everything__echo", {{"text", "through the gateway"}});
    EXPECT_EQ(text_of(r), "through the gateway");
    auto sum = c->call_tool("everything__add", {{"a", 2}, {"b", 3}});
    ASSERT_TRUE(sum.structured_content);
    EXPECT_EQ(sum.structured_content->as_object().at("sum").to_number<double>(), 5.0);

    // Prompts are qualified like tools; resources and templates get mcpxx://<server>/<uri>.
    bool prompt = false;
    for (const auto& p : c->list_all_prompts()) prompt |= p.name == "everything__simple_prompt";
    EXPECT_TRUE(prompt);
    auto got = c->get_prompt("everything__complex_prompt", {{"temperature", "0.5"}});
    EXPECT_FALSE(got.messages.empty());
    const auto resources = c->list_all_resources();
    ASSERT_FALSE(resources.empty());
    EXPECT_EQ(resources.front().uri.rfind("mcpxx://everything/test://static/resource/", 0), 0u);
    auto read = c->read_resource("mcpxx://everything/test://static/resource/1");
    ASSERT_EQ(read.contents.size(), 1u);
    EXPECT_EQ(std::get<mcp::text_resource_contents>(read.contents[0]).uri,
              "mcpxx://everything/test://static/resource/1");
    bool weather = false;
    for (const auto& t : c->list_all_resource_templates())
        weather |= t.uri_template == "mcpxx://everything/weather://{city}/forecast{?days,unit}";
    EXPECT_TRUE(weather);
    auto forecast = c->read_resource("mcpxx://everything/weather://Paris/forecast?days=2");
    ASSERT_EQ(forecast.contents.size(), 1u);
    EXPECT_THAT(std::get<mcp::text_resource_contents>(forecast.contents[0]).text, HasSubstr("Paris"));

    // Completion reaches the server, for prompts and for templates.
    mcp::complete_request cr{.ref = mcp::prompt_reference{"everything__complex_prompt", std::nullopt},
                             .argument = {"style", ""}};
    EXPECT_FALSE(c->complete(cr).values.empty());
    mcp::complete_request ct{
        .ref = mcp::resource_template_reference{"mcpxx://everything/test://static/resource/{id}"},
        .argument = {"id", "1"}};
    EXPECT_FALSE(c->complete(ct).values.empty());

    // Links inside results point at the gateway's names, and can be read there.
    auto links = c->call_tool("everything__get_resource_link", {});
    bool linked = false;
    for (const auto& b : links.content)
        if (const auto* l = std::get_if<mcp::resource_link>(&b)) {
            EXPECT_EQ(l->uri.rfind("mcpxx://everything/", 0), 0u) << l->uri;
            linked = true;
        }
    EXPECT_TRUE(linked);
}

TEST(Gateway, UnknownNamesAndBadArgumentsAreClearErrors) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    auto c = f.connect();
    try {
        c->call_tool("everything__nope", {});
        FAIL() << "an unknown tool must fail";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
        EXPECT_THAT(e.what(), HasSubstr("everything__nope"));
    }
    // The server validates its own arguments: the model reads what is wrong.
    auto bad = c->call_tool("everything__get_weather", {{"city", "Paris"}, {"days", 9}});
    EXPECT_TRUE(bad.is_error.value_or(false));
    EXPECT_THAT(text_of(bad), HasSubstr("days"));
    try {
        c->read_resource("mcpxx://everything/test://no-such-resource");
        FAIL();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::resource_not_found);
    }
    // A tool failing at the server stays a tool failure.
    EXPECT_TRUE(c->call_tool("everything__fail", {}).is_error.value_or(false));
}

TEST(Gateway, ForwardsProgressAndLogsOnTheCallsStream) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    std::mutex mu;
    std::vector<mcp::logging_message_notification> logs;
    auto c = f.connect([&](mcp::client& cl) {
        cl.on_log_message([&](const mcp::logging_message_notification& m) {
            std::lock_guard lock(mu);
            logs.push_back(m);
        });
    });
    std::vector<mcp::progress_update> updates;
    auto r = c->call_tool("everything__long_operation", {{"duration", 0.03}, {"steps", 3}},
                          {.on_progress = [&](const mcp::progress_update& u) { updates.push_back(u); }});
    EXPECT_THAT(text_of(r), HasSubstr("completed"));
    ASSERT_EQ(updates.size(), 3u);
    EXPECT_EQ(updates[2].progress, 3.0);
    EXPECT_EQ(updates[2].total, 3.0);
    EXPECT_EQ(updates[2].message.value_or(""), "step 3");

    // The client's level filters what the servers send (the gateway asks them for everything).
    c->set_logging_level(mcp::logging_level::error);
    c->call_tool("everything__log_messages", {});
    ASSERT_TRUE(wait_until([&] {
        std::lock_guard lock(mu);
        return logs.size() >= 4;
    }));
    std::lock_guard lock(mu);
    ASSERT_EQ(logs.size(), 4u); // error, critical, alert, emergency
    EXPECT_EQ(logs[0].level, mcp::logging_level::error);
    EXPECT_EQ(logs[0].logger.value_or(""), "everything/everything");
    EXPECT_FALSE(logs[0].meta && logs[0].meta->contains(mcp::forwarding_meta::correlation_id));
}

TEST(Gateway, AsksTheCallingClientForSamplingElicitationAndRoots) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    std::atomic<int> sampled{0}, elicited{0};
    auto c = f.connect([&](mcp::client& cl) {
        cl.set_sampling_handler([&](const mcp::create_message_request& r, mcp::request_context&) {
            ++sampled;
            // What the client sees is the server's request, without the gateway's hints.
            EXPECT_FALSE(r.meta && r.meta->contains(mcp::forwarding_meta::correlation_id));
            return mcp::create_message_result{.role = mcp::role::assistant,
                                              .content = {mcp::text_content{.text = "forty-two"}},
                                              .model = "test-model"};
        });
        cl.set_elicitation_handler([&](const mcp::elicit_request&, mcp::request_context&) {
            ++elicited;
            return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                      .content = object{{"name", "Ada"}, {"age", 36}}};
        });
        cl.set_roots({{.uri = "file:///client/root", .name = "client-root"}});
    });
    auto s = c->call_tool("everything__sample_llm", {{"prompt", "meaning of life?"}});
    EXPECT_THAT(text_of(s), HasSubstr("forty-two"));
    EXPECT_THAT(text_of(s), HasSubstr("test-model"));
    auto e = c->call_tool("everything__ask_user", {});
    EXPECT_THAT(text_of(e), HasSubstr("accept"));
    EXPECT_THAT(text_of(e), HasSubstr("Ada"));
    auto roots = c->call_tool("everything__list_roots", {});
    EXPECT_THAT(text_of(roots), HasSubstr("file:///client/root"));
    EXPECT_EQ(sampled.load(), 1);
    EXPECT_EQ(elicited.load(), 1);

    // A client that cannot sample: the server learns it, the model reads it.
    auto plain = f.connect();
    auto refused = plain->call_tool("everything__sample_llm", {{"prompt", "x"}});
    EXPECT_TRUE(refused.is_error.value_or(false));
    EXPECT_THAT(text_of(refused), HasSubstr("sampling"));
}

TEST(Gateway, ForwardsCancellationToTheServer) {
    // The server traces what it receives on its stderr: the cancellation must reach it.
    std::mutex mu;
    std::string seen;
    gateway_fixture f({stdio_server("everything", "everything_server", {}, {{"MCPXX_TRACE", "1"}})},
                      [&](mcp::host::gateway_options& o) {
                          o.manager.on_server_stderr = [&](const std::string&, std::string_view line) {
                              std::lock_guard lock(mu);
                              seen.append(line).push_back('\n');
                          };
                      });
    auto c = f.connect();
    mcp::cancellation_source cancel;
    std::thread canceller([&] {
        wait_until([&] {
            std::lock_guard lock(mu);
            return seen.find("\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"") != std::string::npos;
        });
        cancel.cancel("changed my mind");
    });
    const auto t0 = std::chrono::steady_clock::now();
    try {
        c->call_tool("everything__slow", {{"seconds", 30}}, {.cancel = cancel.token()});
        ADD_FAILURE() << "the call must be cancelled";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_cancelled);
    }
    canceller.join();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
    EXPECT_TRUE(wait_until([&] {
        std::lock_guard lock(mu);
        return seen.find("notifications/cancelled") != std::string::npos;
    })) << seen;
}

TEST(Gateway, KeepsTheCatalogueInStepWithListChanged) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    std::atomic<int> changed{0};
    auto c = f.connect([&](mcp::client& cl) { cl.on_tools_list_changed([&] { ++changed; }); });
    EXPECT_FALSE(has_tool(c->list_all_tools(), "everything__extra"));
    c->call_tool("everything__toggle_extra_tool", {});
    ASSERT_TRUE(wait_until([&] { return changed.load() > 0; }));
    ASSERT_TRUE(wait_until([&] { return has_tool(c->list_all_tools(), "everything__extra"); }));
    EXPECT_EQ(text_of(c->call_tool("everything__extra", {})), "extra!");
    c->call_tool("everything__toggle_extra_tool", {});
    ASSERT_TRUE(wait_until([&] { return !has_tool(c->list_all_tools(), "everything__extra"); }));
}

TEST(Gateway, SubscriptionsReachTheServerAndUpdatesComeBack) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    std::mutex mu;
    std::vector<std::string> updated;
    auto c = f.connect([&](mcp::client& cl) {
        cl.on_resource_updated([&](const std::string& uri) {
            std::lock_guard lock(mu);
            updated.push_back(uri);
        });
    });
    const std::string uri = "mcpxx://everything/test://static/resource/3";
    c->subscribe(uri);
    c->call_tool("everything__touch_resource", {{"uri", "test://static/resource/3"}});
    ASSERT_TRUE(wait_until([&] {
        std::lock_guard lock(mu);
        return !updated.empty();
    }));
    std::lock_guard lock(mu);
    EXPECT_EQ(updated.front(), uri);
}

TEST(Gateway, RestartsAKilledServerAndServesAgain) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    auto c = f.connect();
    EXPECT_EQ(text_of(c->call_tool("everything__echo", {{"text", "before"}})), "before");
    const auto before = f.gateway().servers().status("everything");
    ASSERT_TRUE(before.pid);
    ASSERT_EQ(::kill(*before.pid, SIGKILL), 0);
    ASSERT_TRUE(wait_until([&] {
        auto s = f.gateway().servers().status("everything");
        return s.state == mcp::host::server_state::ready && s.restarts == 1;
    }));
    EXPECT_NE(*f.gateway().servers().status("everything").pid, *before.pid);
    EXPECT_TRUE(f.saw_event("server_state", "everything"));
    // The same client, the same names: the catalogue came back with the server.
    ASSERT_TRUE(wait_until([&] { return has_tool(c->list_all_tools(), "everything__echo"); }));
    EXPECT_EQ(text_of(c->call_tool("everything__echo", {{"text", "after"}})), "after");
    const auto h = f.gateway().health();
    EXPECT_EQ(mcp::find_string(h, "status").value_or(""), "ok");
}

TEST(Gateway, AServerThatIsDownIsAToolErrorAndHealthSaysSo) {
    gateway_fixture f({stdio_server("everything", "everything_server"),
                       {.name = "broken", .command = "/nonexistent/mcp-server"}});
    auto h = f.gateway().health();
    EXPECT_EQ(mcp::find_string(h, "status").value_or(""), "degraded");
    bool reported = false;
    for (const auto& s : h.at("servers").as_array())
        if (mcp::find_string(s.as_object(), "name").value_or("") == "broken") {
            // Not given up: a gateway tries again (the command may be installed later).
            EXPECT_EQ(mcp::find_string(s.as_object(), "state").value_or(""), "restarting");
            EXPECT_TRUE(s.as_object().contains("error"));
            reported = true;
        }
    EXPECT_TRUE(reported);
    EXPECT_TRUE(f.saw_event("server_state", "broken"));
    // The others work.
    auto c = f.connect();
    EXPECT_EQ(text_of(c->call_tool("everything__echo", {{"text", "fine"}})), "fine");
}

TEST(Gateway, ARemoteServerDownAtStartJoinsTheCatalogueWhenItComesUp) {
    child_server remote({built("everything_server"), "--http", "127.0.0.1:{port}"});
    ASSERT_TRUE(remote.ready());
    mcp::host::server_config entry;
    entry.name = "remote";
    entry.transport = mcp::host::transport_kind::streamable_http;
    entry.url = remote.url("/mcp");
    remote.stop(); // nothing answers at its URL when the gateway starts
    gateway_fixture f({entry}, [](mcp::host::gateway_options& o) { o.manager.restart.max_delay = 200ms; });
    const auto down = f.gateway().servers().status("remote");
    EXPECT_EQ(down.state, mcp::host::server_state::restarting) << down.error; // tried again, not failed
    EXPECT_THAT(down.error, HasSubstr("connect")) << down.error;
    EXPECT_EQ(mcp::find_string(f.gateway().health(), "status").value_or(""), "down");

    std::atomic<int> changed{0};
    auto c = f.connect([&](mcp::client& cl) { cl.on_tools_list_changed([&] { ++changed; }); });
    EXPECT_FALSE(has_tool(c->list_all_tools(), "remote__echo"));
    ASSERT_TRUE(remote.restart()); // the same port
    ASSERT_TRUE(eventually([&] { return changed.load() > 0; }, 20s))
        << f.gateway().servers().status("remote").error;
    ASSERT_TRUE(eventually([&] { return has_tool(c->list_all_tools(), "remote__echo"); }));
    EXPECT_EQ(text_of(c->call_tool("remote__echo", {{"text", "came up late"}})), "came up late");
    EXPECT_EQ(mcp::find_string(f.gateway().health(), "status").value_or(""), "ok");
    EXPECT_EQ(f.gateway().servers().status("remote").restarts, 0); // it never was up before
}

TEST(Gateway, KeepsRestartingAServerKilledAgainAndAgain) {
    // More deaths than a host run once would put up with (restart_policy's default: 5).
    gateway_fixture f({stdio_server("everything", "everything_server")},
                      [](mcp::host::gateway_options& o) { o.manager.restart.max_delay = 100ms; });
    auto c = f.connect();
    for (int kill = 1; kill <= 7; ++kill) {
        const auto before = f.gateway().servers().status("everything");
        ASSERT_TRUE(before.pid);
        ASSERT_EQ(::kill(*before.pid, SIGKILL), 0);
        ASSERT_TRUE(eventually(
            [&] {
                const auto s = f.gateway().servers().status("everything");
                return s.state == mcp::host::server_state::ready && s.restarts == kill;
            },
            20s))
            << "after kill " << kill << ": " << to_string(f.gateway().servers().status("everything").state)
            << " " << f.gateway().servers().status("everything").error;
    }
    ASSERT_TRUE(eventually([&] { return has_tool(c->list_all_tools(), "everything__echo"); }));
    EXPECT_EQ(text_of(c->call_tool("everything__echo", {{"text", "still here"}})), "still here");
}

TEST(Gateway, ANameStaysWithItsServerWhileTheServerRestarts) {
    // "echo.2" and "echo_2" both sanitise to "echo_2": their echo tools are echo_2__echo and
    // echo_2__echo_2, whichever came up first taking the first.
    switchable_server flaky("gateway-names", built("echo_server"));
    mcp::host::server_config first{.name = "echo.2", .command = flaky.command()};
    gateway_fixture f({first, stdio_server("echo_2", "echo_server")},
                      [](mcp::host::gateway_options& o) { o.manager.restart.max_delay = 100ms; });
    auto c = f.connect();
    std::string of_flaky, of_other;
    for (const auto& t : c->list_all_tools()) {
        const auto to = f.gateway().tool_route(t.name);
        ASSERT_TRUE(to);
        (to->server == "echo.2" ? of_flaky : of_other) = t.name;
    }
    EXPECT_EQ((std::set<std::string>{of_flaky, of_other}),
              (std::set<std::string>{"echo_2__echo", "echo_2__echo_2"}));

    flaky.keep_down();
    const auto pid = f.gateway().servers().status("echo.2").pid;
    ASSERT_TRUE(pid);
    ASSERT_EQ(::kill(*pid, SIGKILL), 0);
    ASSERT_TRUE(eventually([&] { return !has_tool(c->list_all_tools(), of_flaky); }));
    EXPECT_EQ(f.gateway().servers().status("echo.2").state, mcp::host::server_state::restarting);
    // The other server keeps its name, and is not given the one that looks free.
    const auto now = c->list_all_tools();
    EXPECT_TRUE(has_tool(now, of_other));
    EXPECT_EQ(now.size(), 1u);
    EXPECT_EQ(f.gateway().tool_route(of_other)->server, "echo_2");
    // A client that still holds the name: the server is down, said as a tool error.
    auto r = c->call_tool(of_flaky, {{"text", "to the flaky one"}});
    EXPECT_TRUE(r.is_error.value_or(false)) << text_of(r);
    EXPECT_THAT(text_of(r), HasSubstr("not available"));
    EXPECT_THAT(text_of(r), HasSubstr("server \"echo.2\" is restarting"));
    EXPECT_EQ(text_of(c->call_tool(of_other, {{"text", "to the other"}})), "to the other");

    flaky.let_up();
    ASSERT_TRUE(eventually([&] { return has_tool(c->list_all_tools(), of_flaky); }, 20s));
    EXPECT_EQ(f.gateway().tool_route(of_flaky)->server, "echo.2");
    EXPECT_EQ(f.gateway().tool_route(of_other)->server, "echo_2");
    EXPECT_EQ(text_of(c->call_tool(of_flaky, {{"text", "back"}})), "back");
}

TEST(Gateway, AServerWithdrawingItsSamplingRequestWithdrawsItAtTheClient) {
    // A server of the test's own, over HTTP: it asks for sampling with progress, and withdraws
    // the question when the test says.
    mcp::cancellation_source withdraw;
    std::mutex mu;
    std::vector<mcp::progress_update> progress;
    http_backend backend("asker");
    backend.server().add_tool({.name = "ask_then_withdraw"}, [&](const object&, mcp::context& ctx) {
        const mcp::create_message_request question{
            .messages = {{.role = mcp::role::user, .content = {mcp::text_content{.text = "well?"}}}},
            .max_tokens = 10};
        try {
            ctx.ask({{"question", question}},
                    mcp::ask_options{.cancel = withdraw.token(),
                                     .on_progress = [&](const std::string&, const mcp::progress_update& p) {
                                         std::lock_guard lock(mu);
                                         progress.push_back(p);
                                     }});
            return mcp::call_tool_result{.content = {mcp::text("answered")}};
        } catch (const mcp::client_request_failed& e) {
            return mcp::call_tool_result{.content = {mcp::text(std::string("withdrawn: ") + e.what())}};
        }
    });
    backend.start();
    gateway_fixture f({backend.entry("asker")});

    std::atomic<bool> asked{false};
    enum class ending { waiting, cancelled, not_cancelled };
    std::atomic<ending> handler{ending::waiting};
    std::shared_ptr<recording_transport> wire;
    auto c = f.connect_recorded(wire, [&](mcp::client& cl) {
        cl.set_sampling_handler([&](const mcp::create_message_request&, mcp::request_context& request) {
            request.report_progress(0.5, 1.0, "thinking");
            asked = true;
            handler = eventually([&] { return request.cancelled(); }, 10s) ? ending::cancelled
                                                                           : ending::not_cancelled;
            return mcp::create_message_result{.role = mcp::role::assistant,
                                              .content = {mcp::text_content{.text = "too late"}},
                                              .model = "m"};
        });
    });
    std::jthread withdrawer([&] { // joined however the call ends
        // Once the client has the question and its progress reached the server.
        eventually([&] {
            std::lock_guard lock(mu);
            return asked.load() && !progress.empty();
        });
        withdraw.cancel("the server changed its mind");
    });
    const auto r = c->call_tool("asker__ask_then_withdraw", {});
    withdrawer.join();
    EXPECT_THAT(text_of(r), HasSubstr("withdrawn")) << text_of(r);
    // The client's handler sees its request cancelled (the call may end before it notices).
    ASSERT_TRUE(eventually([&] { return handler.load() != ending::waiting; }, 15s));
    EXPECT_EQ(handler.load(), ending::cancelled);
    {
        // The client's progress on the server's request went back to the server.
        std::lock_guard lock(mu);
        ASSERT_EQ(progress.size(), 1u);
        EXPECT_EQ(progress[0].progress, 0.5);
        EXPECT_EQ(progress[0].total, 1.0);
        EXPECT_EQ(progress[0].message.value_or(""), "thinking");
    }
    // At the wire: the client was sent notifications/cancelled naming the request it was asked.
    const auto request = wire->wait_for([](const object& m) {
        return mcp::find_string(m, "method").value_or("") == "sampling/createMessage";
    });
    ASSERT_TRUE(request.is_object());
    const auto id = request.as_object().at("id");
    const auto cancelled = wire->wait_for([&](const object& m) {
        if (mcp::find_string(m, "method").value_or("") != "notifications/cancelled") return false;
        const auto* params = m.if_contains("params");
        return params && params->is_object() && params->as_object().contains("requestId") &&
               params->as_object().at("requestId") == id;
    });
    EXPECT_TRUE(cancelled.is_object()) << "no notifications/cancelled for request " << mcp::to_json(id);
}

TEST(Gateway, ClientRootsReachAServerThatAsksOutsideACall) {
    // filesystem_server without directories serves its client's roots, which it asks for after
    // it started and after each roots/list_changed: outside any call. Behind a gateway its
    // client is every client at once.
    namespace fs = std::filesystem;
    const auto base = fs::temp_directory_path() / ("mcpxx-gateway-roots-" + std::to_string(::getpid()));
    fs::remove_all(base);
    const auto dir = [&](const char* name) {
        fs::create_directories(base / name);
        std::ofstream(base / name / (std::string(name) + ".txt")) << name << "\n";
        return fs::canonical(base / name);
    };
    const auto a = dir("a"), b = dir("b"), c = dir("c");
    const auto root_of = [](const fs::path& p) {
        return mcp::root{.uri = mcp::host::file_uri(p), .name = p.filename().string()};
    };
    gateway_fixture f({stdio_server("fs", "filesystem_server")});
    // Which files the server lists (its resources), as the gateway sees them: no call is made
    // to the server meanwhile, so each question it asks is one outside a call.
    const auto lists = [&](const fs::path& d) {
        const auto file = mcp::host::file_uri(d / (d.filename().string() + ".txt"));
        for (const auto& r : f.gateway().servers().resources("fs"))
            if (r.uri == file) return true;
        return false;
    };
    EXPECT_FALSE(lists(a)); // no client yet: the gateway's own roots (none)

    auto first = f.connect([&](mcp::client& cl) { cl.set_roots({root_of(a)}); });
    ASSERT_TRUE(eventually([&] { return lists(a); }, 20s));
    // The client's roots/list_changed reaches the server, which asks again.
    first->set_roots({root_of(b)});
    first->notify_roots_changed();
    ASSERT_TRUE(eventually([&] { return lists(b) && !lists(a); }, 20s));
    // Two clients: the union of their roots.
    auto second = f.connect([&](mcp::client& cl) { cl.set_roots({root_of(c)}); });
    ASSERT_TRUE(eventually([&] { return lists(b) && lists(c); }, 20s));
    const auto allowed = mcp::to_json(
        first->call_tool("fs__list_allowed_directories", {}).structured_content.value_or(nullptr));
    EXPECT_THAT(allowed, HasSubstr(b.string()));
    EXPECT_THAT(allowed, HasSubstr(c.string()));
    // One leaves: its roots leave with it.
    second->close();
    EXPECT_TRUE(eventually([&] { return lists(b) && !lists(c); }, 20s));
    first->close();
    fs::remove_all(base);
}

TEST(Gateway, PolicyDecidesWithoutATerminal) {
    gateway_fixture f({stdio_server("everything", "everything_server")}, [](mcp::host::gateway_options& o) {
        o.manager.approval.approve_all = false;
        o.manager.approval.trusted_servers = {"everything"};
    });
    auto c = f.connect();
    // Read-only tool of a trusted server: runs.
    EXPECT_FALSE(c->call_tool("everything__add", {{"a", 1}, {"b", 2}}).is_error.value_or(false));
    // Anything else: a tool error that says why.
    auto denied = c->call_tool("everything__echo", {{"text", "x"}});
    EXPECT_TRUE(denied.is_error.value_or(false));
    EXPECT_THAT(text_of(denied), HasSubstr("did not run"));
}

TEST(Gateway, TheClientsUserApprovesWhatThePolicyDoesNot) {
    gateway_fixture f({stdio_server("everything", "everything_server")},
                      [](mcp::host::gateway_options& o) { o.manager.approval.approve_all = false; });
    // A client that can ask its user (form elicitation): the gateway asks before running.
    std::mutex mu;
    std::vector<std::string> asked;
    bool say_yes = true;
    auto c = f.connect([&](mcp::client& cl) {
        cl.set_elicitation_handler(
            [&](const mcp::elicit_request& r, mcp::request_context&) {
                std::lock_guard lock(mu);
                asked.push_back(r.message);
                if (!say_yes) return mcp::elicit_result{.action = mcp::elicit_action::decline};
                return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                          .content = object{{"run", true}}};
            },
            {.form = true});
    });
    auto ran = c->call_tool("everything__echo", {{"text", "approved"}});
    EXPECT_FALSE(ran.is_error.value_or(false)) << text_of(ran);
    EXPECT_EQ(text_of(ran), "approved");
    {
        std::lock_guard lock(mu);
        ASSERT_EQ(asked.size(), 1u);
        EXPECT_THAT(asked[0], HasSubstr("Run the tool \"echo\" of the server \"everything\""));
        EXPECT_THAT(asked[0], HasSubstr(R"(Arguments: {"text":"approved"})"));
        say_yes = false;
    }
    auto refused = c->call_tool("everything__echo", {{"text", "refused"}});
    EXPECT_TRUE(refused.is_error.value_or(false));
    EXPECT_THAT(text_of(refused), HasSubstr("the user denied the call"));
    // A client that cannot ask: the policy's answer stands, and it is not called the user's.
    auto mute = f.connect();
    auto denied = mute->call_tool("everything__echo", {{"text", "x"}});
    EXPECT_TRUE(denied.is_error.value_or(false));
    EXPECT_THAT(text_of(denied), HasSubstr("did not run"));
    EXPECT_THAT(text_of(denied), HasSubstr("the call needs the user's approval, and this client cannot be "
                                           "asked (it does not declare form elicitation)"));
    EXPECT_THAT(text_of(denied), Not(HasSubstr("the user denied")));
    std::lock_guard lock(mu);
    EXPECT_EQ(asked.size(), 2u);
}

TEST(Gateway, PlainNamesHideCollisionsAndSayWhich) {
    gateway_fixture f(
        {stdio_server("first", "everything_server"), stdio_server("second", "everything_server")},
        [](mcp::host::gateway_options& o) { o.qualify_names = false; });
    auto c = f.connect();
    const auto tools = c->list_all_tools();
    EXPECT_TRUE(has_tool(tools, "echo"));
    EXPECT_FALSE(has_tool(tools, "first__echo"));
    EXPECT_EQ(f.gateway().tool_route("echo")->server, "first");
    EXPECT_EQ(text_of(c->call_tool("echo", {{"text", "plain"}})), "plain");
    auto r = c->read_resource("test://static/resource/1");
    EXPECT_EQ(std::get<mcp::text_resource_contents>(r.contents[0]).uri, "test://static/resource/1");
    EXPECT_TRUE(f.saw_event("hidden", "second"));
}

TEST(Gateway, FrontsARemoteServerToo) {
    // A config entry with a url: the gateway reaches everything_server over Streamable HTTP,
    // and the server's sampling request (on the call's SSE stream there) still finds its caller.
    child_server remote({built("everything_server"), "--http", "127.0.0.1:{port}"});
    ASSERT_TRUE(remote.ready());
    mcp::host::server_config entry;
    entry.name = "remote";
    entry.transport = mcp::host::transport_kind::streamable_http;
    entry.url = remote.url("/mcp");
    gateway_fixture f({entry});
    ASSERT_EQ(f.gateway().servers().status("remote").state, mcp::host::server_state::ready)
        << f.gateway().servers().status("remote").error;
    auto c = f.connect([](mcp::client& cl) {
        cl.set_sampling_handler([](const mcp::create_message_request&, mcp::request_context&) {
            return mcp::create_message_result{.role = mcp::role::assistant,
                                              .content = {mcp::text_content{.text = "over two hops"}},
                                              .model = "m"};
        });
    });
    EXPECT_EQ(text_of(c->call_tool("remote__echo", {{"text", "remote"}})), "remote");
    EXPECT_THAT(text_of(c->call_tool("remote__sample_llm", {{"prompt", "q"}})), HasSubstr("over two hops"));
}

TEST(Gateway, LeavesOutAToolWhoseHeaderAnnotationsAreInvalid) {
    // A server of another make may list a tool whose x-mcp-header sits under `items`: an invalid
    // definition (2026-07-28). mcp::server would refuse it, so this one gets it into its
    // listing through a middleware; the gateway must leave it out, say why, and keep the rest.
    mcp::server remote({.info = {.name = "remote", .version = "1"}});
    const object schema{{"type", "object"},
                        {"properties", {{"tags", {{"type", "array"}, {"items", {{"type", "string"}}}}}}}};
    for (const char* name : {"good", "bad"})
        remote.add_tool({.name = name, .input_schema = schema}, [](const object&, mcp::context&) {
            return mcp::call_tool_result{.content = {mcp::text("ran")}};
        });
    remote.use([](mcp::incoming_call& call, const mcp::receive_next& next) {
        auto r = next(call);
        if (call.method() != "tools/list") return r;
        for (auto& t : r.as_object()["tools"].as_array())
            if (auto& tool = t.as_object(); tool.at("name") == "bad")
                tool.at("inputSchema")
                    .as_object()
                    .at("properties")
                    .as_object()
                    .at("tags")
                    .as_object()
                    .at("items")
                    .as_object()["x-mcp-header"] = "Tag";
        return r;
    });
    mcp::http::server http(remote, {.port = 0});
    http.start();
    mcp::host::server_config entry;
    entry.name = "remote";
    entry.transport = mcp::host::transport_kind::streamable_http;
    entry.url = http.url();
    gateway_fixture f({entry});
    ASSERT_EQ(f.gateway().servers().status("remote").state, mcp::host::server_state::ready);
    auto c = f.connect();
    const auto tools = c->list_all_tools();
    EXPECT_TRUE(has_tool(tools, "remote__good"));
    EXPECT_FALSE(has_tool(tools, "remote__bad"));
    EXPECT_EQ(text_of(c->call_tool("remote__good", {{"tags", mcp::json::array{"a"}}})), "ran");
    bool said_why = false;
    for (const auto& e : f.events())
        if (e.at("event") == "hidden" && e.at("name") == "remote__bad")
            said_why = std::string(e.at("kept").as_string()).find("/properties/tags/items/x-mcp-header") !=
                       std::string::npos;
    EXPECT_TRUE(said_why);
    http.stop(std::chrono::milliseconds(0));
}

TEST(Gateway, ErrorsNameTheGatewaysUris) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    auto c = f.connect();
    // The template routes it, the server does not have it: its error speaks of its own URI,
    // which the client never saw.
    const std::string outer = "mcpxx://everything/test://static/resource/999";
    try {
        c->read_resource(outer);
        FAIL() << "read a resource that does not exist";
    } catch (const mcp::error& e) {
        EXPECT_EQ(std::string(e.what()), "Resource not found: " + outer);
        ASSERT_TRUE(e.data().is_object()) << mcp::to_json(e.data());
        EXPECT_EQ(e.data().as_object().at("uri").as_string(), outer);
    }
}

TEST(Gateway, MetricLabelsNameTheServerAndItsTool) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    mcp::server_metrics metrics;
    // Added before start() would be the norm; a late one still wraps every request from now on.
    f.gateway().server().use(
        metrics.middleware([&](const mcp::incoming_call& call) { return f.gateway().labels(call); }));
    auto c = f.connect();
    c->call_tool("everything__echo", {{"text", "x"}});
    c->call_tool("everything__fail", {});
    const auto text = metrics.prometheus("mcp");
    EXPECT_THAT(text,
                HasSubstr("mcp_requests_total{method=\"tools/call\",server=\"everything\",tool=\"echo\"} 1"));
    EXPECT_THAT(text,
                HasSubstr("mcp_errors_total{method=\"tools/call\",server=\"everything\",tool=\"fail\"} 1"));
    EXPECT_THAT(text, HasSubstr("mcp_request_duration_seconds_count{method=\"tools/"
                                "call\",server=\"everything\",tool=\"echo\"} 1"));
    // Names the catalogue does not have share one label: clients cannot add series.
    for (int i = 0; i < 20; ++i)
        EXPECT_THROW(c->call_tool(std::string(300, 'z') + std::to_string(i), {}), mcp::error);
    const auto after = metrics.prometheus("mcp");
    EXPECT_THAT(after, HasSubstr("mcp_errors_total{method=\"tools/call\",tool=\"(unknown)\"} 20"));
    EXPECT_EQ(after.find("zzzz"), std::string::npos);
}

} // namespace
