// mcp::client wire tests: the initialize request per revision, capabilities derived from the
// handlers, version negotiation, and the lifecycle (calls before connect and after close).
#include "client_wire_fixture.hpp"

#include <thread>

using namespace std::chrono_literals;
using mcp::revision;
using mcp::test::client_wire;

namespace {

mcp::create_message_result sample_nothing(const mcp::create_message_request&, mcp::request_context&) {
    return {.content = {mcp::text_content{.text = "x"}}, .model = "m"};
}
mcp::elicit_result elicit_nothing(const mcp::elicit_request&, mcp::request_context&) {
    return {};
}

std::string init_request(std::string_view version, std::string_view caps) {
    return R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")" +
           std::string(version) + R"(","capabilities":)" + std::string(caps) +
           R"(,"clientInfo":{"name":"t","version":"1"}}})";
}

struct handshake : client_wire {};

TEST_F(handshake, initialize_without_handlers_declares_no_capabilities) {
    for (auto r :
         {revision::v2024_11_05, revision::v2025_03_26, revision::v2025_06_18, revision::v2025_11_25}) {
        wire = std::make_shared<mcp::test::scripted_transport>();
        opts.protocol_version = r;
        make();
        EXPECT_EQ(connect(), init_request(mcp::to_string(r), "{}")) << mcp::to_string(r);
        EXPECT_EQ(c->protocol_version(), r);
        c->close();
    }
}

// The capabilities follow the handlers set, and each revision sees only what it defines:
// no elicitation before 2025-06-18, elicitation modes and sampling.tools/context only in 2025-11-25.
TEST_F(handshake, capabilities_follow_handlers_and_revision) {
    const std::pair<revision, const char*> expected[] = {
        {revision::v2024_11_05,
         R"({"experimental":{"x.y/z":{}},"roots":{"listChanged":true},"sampling":{}})"},
        {revision::v2025_03_26,
         R"({"experimental":{"x.y/z":{}},"roots":{"listChanged":true},"sampling":{}})"},
        {revision::v2025_06_18,
         R"({"experimental":{"x.y/z":{}},"roots":{"listChanged":true},"sampling":{},"elicitation":{}})"},
        {revision::v2025_11_25,
         R"({"experimental":{"x.y/z":{}},"roots":{"listChanged":true},"sampling":{"context":{},"tools":{}},"elicitation":{"form":{},"url":{}}})"},
    };
    for (const auto& [r, caps] : expected) {
        wire = std::make_shared<mcp::test::scripted_transport>();
        opts.protocol_version = r;
        opts.experimental = {{"x.y/z", mcp::json::object{}}};
        make();
        c->set_roots({{.uri = "file:///tmp"}});
        c->set_sampling_handler(sample_nothing, {.tools = true, .context = true});
        c->set_elicitation_handler(elicit_nothing, {.form = true, .url = true});
        EXPECT_EQ(connect(), init_request(mcp::to_string(r), caps)) << mcp::to_string(r);
        c->close();
    }
}

TEST_F(handshake, default_handler_flags) {
    make();
    c->set_roots_handler([] { return std::vector<mcp::root>{}; }, {.list_changed = false});
    c->set_sampling_handler(sample_nothing);    // tools yes, context no
    c->set_elicitation_handler(elicit_nothing); // form only
    EXPECT_EQ(
        connect(),
        init_request("2025-11-25",
                     R"({"roots":{"listChanged":false},"sampling":{"tools":{}},"elicitation":{"form":{}}})"));
}

TEST_F(handshake, url_only_elicitation_is_not_declared_where_modes_cannot_be_named) {
    opts.protocol_version = revision::v2025_06_18;
    make();
    c->set_elicitation_handler(elicit_nothing, {.form = false, .url = true});
    EXPECT_EQ(connect(), init_request("2025-06-18", "{}"));
}

TEST_F(handshake, session_is_named_after_the_client) {
    make();
    connect();
    EXPECT_EQ(c->rpc().options().name, "t");
    EXPECT_EQ(c->server().server_info.name, "srv");
    EXPECT_TRUE(c->connected());
}

TEST_F(handshake, an_older_supported_revision_is_accepted) {
    make();
    connect("2025-03-26");
    EXPECT_EQ(c->protocol_version(), revision::v2025_03_26);
    EXPECT_EQ(c->rpc().protocol_revision(), revision::v2025_03_26);
    EXPECT_EQ(c->server().protocol_version, "2025-03-26");
    EXPECT_TRUE(c->connected());
}

void expect_refused(client_wire& t, const std::string& answer, const std::string& must_mention) {
    t.make();
    auto done = std::async(std::launch::async, [&] { t.c->connect(t.wire); });
    ASSERT_TRUE(t.wire->next());
    t.wire->inject(answer);
    try {
        done.get();
        ADD_FAILURE() << "connect accepted " << answer;
    } catch (const mcp::error& e) {
        EXPECT_NE(std::string(e.what()).find(must_mention), std::string::npos) << e.what();
    }
    EXPECT_TRUE(t.wire->closed());
    EXPECT_FALSE(t.c->connected());
    EXPECT_FALSE(t.wire->next(50ms)) << "nothing (no initialized) may follow a refusal";
    try {
        t.c->list_tools();
        ADD_FAILURE() << "a call after a refused connect succeeded";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::connection_closed);
    }
}

TEST_F(handshake, an_unknown_revision_is_refused_and_the_connection_closed) {
    expect_refused(
        *this,
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1999-01-01","capabilities":{},"serverInfo":{"name":"s","version":"1"}}})",
        "1999-01-01");
}

TEST_F(handshake, the_message_names_both_versions) {
    expect_refused(
        *this,
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1999-01-01","capabilities":{},"serverInfo":{"name":"s","version":"1"}}})",
        "2025-11-25");
}

TEST_F(handshake, a_revision_outside_the_accepted_list_is_refused) {
    opts.revisions = {revision::v2025_11_25, revision::v2025_06_18};
    expect_refused(
        *this,
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2024-11-05","capabilities":{},"serverInfo":{"name":"s","version":"1"}}})",
        "2024-11-05");
}

TEST_F(handshake, a_stateless_era_revision_is_refused) {
    opts.revisions.push_back(revision::v2026_07_28);
    expect_refused(
        *this,
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2026-07-28","capabilities":{},"serverInfo":{"name":"s","version":"1"}}})",
        "2026-07-28");
}

TEST_F(handshake, an_initialize_error_is_passed_on_and_closes) {
    expect_refused(
        *this, R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unsupported protocol version"}})",
        "Unsupported protocol version");
}

TEST_F(handshake, a_malformed_initialize_result_closes) {
    expect_refused(*this,
                   R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{}}})",
                   "malformed");
}

// Asking for 2026-07-28 probes with server/discover first; "method not found" marks a server of
// the initialize era, which is then initialized with the newest initialize-era revision.
TEST_F(handshake, asking_for_a_stateless_revision_probes_then_falls_back_to_initialize) {
    opts.protocol_version = revision::v2026_07_28;
    make();
    auto done = std::async(std::launch::async, [&] { c->connect(wire); });
    auto probe = wire->next_json();
    ASSERT_TRUE(probe.is_object());
    EXPECT_EQ(probe.at("method"), "server/discover");
    EXPECT_EQ(probe.at("params").at("_meta").at("io.modelcontextprotocol/protocolVersion"), "2026-07-28");
    wire->inject(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}})");
    auto init = wire->next_json();
    ASSERT_TRUE(init.is_object());
    EXPECT_EQ(init.at("method"), "initialize");
    EXPECT_EQ(init.at("params").at("protocolVersion"), "2025-11-25");
    wire->inject(R"({"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},)"
                 R"("serverInfo":{"name":"old","version":"1"}}})");
    done.get();
    EXPECT_EQ(wire->next().value_or(""), R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    EXPECT_EQ(c->protocol_version(), revision::v2025_11_25);
    EXPECT_FALSE(c->stateless());
    EXPECT_FALSE(c->discovery());
}

TEST_F(handshake, initialize_times_out_with_the_client_timeout) {
    opts.timeout = 50ms;
    make();
    try {
        c->connect(wire);
        ADD_FAILURE();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_timeout);
    }
    EXPECT_TRUE(wire->closed());
}

TEST_F(handshake, calls_before_connect_fail_clearly) {
    make();
    try {
        c->list_tools();
        ADD_FAILURE();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::connection_closed);
        EXPECT_NE(std::string(e.what()).find("connect() first"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("tools/list"), std::string::npos) << e.what();
    }
    EXPECT_THROW(c->server(), mcp::error);
    EXPECT_THROW(c->rpc(), mcp::error);
    EXPECT_FALSE(c->connected());
    c->notify_roots_changed(); // nothing to do, no throw
    EXPECT_FALSE(wire->next(10ms));
}

TEST_F(handshake, calls_after_close_fail_clearly_and_close_is_idempotent) {
    make();
    connect();
    c->close();
    c->close();
    EXPECT_TRUE(wire->closed());
    EXPECT_FALSE(c->connected());
    try {
        c->ping();
        ADD_FAILURE();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::connection_closed);
        EXPECT_NE(std::string(e.what()).find("closed"), std::string::npos) << e.what();
    }
}

TEST_F(handshake, connecting_twice_is_refused) {
    make();
    connect();
    auto other = std::make_shared<mcp::test::scripted_transport>();
    EXPECT_THROW(c->connect(other), mcp::error);
    EXPECT_TRUE(c->connected());
    EXPECT_FALSE(other->next(10ms));
    EXPECT_FALSE(other->closed()) << "a refused transport is left alone";
}

TEST_F(handshake, reconnecting_after_close_works) {
    make();
    connect();
    c->close();
    wire = std::make_shared<mcp::test::scripted_transport>();
    connect("2025-06-18");
    EXPECT_TRUE(c->connected());
    EXPECT_EQ(c->protocol_version(), revision::v2025_06_18);
}

TEST_F(handshake, the_server_closing_is_seen) {
    make();
    std::promise<void> closed;
    c->on_close([&] { closed.set_value(); });
    connect();
    wire->close();
    EXPECT_EQ(closed.get_future().wait_for(2s), std::future_status::ready);
    EXPECT_FALSE(c->connected());
    EXPECT_THROW(c->ping(), mcp::error);
}

TEST_F(handshake, destroying_the_client_closes_the_transport) {
    make();
    connect();
    c.reset();
    EXPECT_TRUE(wire->closed());
}

TEST_F(handshake, the_server_may_ping_the_client) {
    make();
    connect();
    wire->inject(R"({"jsonrpc":"2.0","id":"s1","method":"ping"})");
    EXPECT_EQ(wire->next().value_or(""), R"({"jsonrpc":"2.0","id":"s1","result":{}})");
}

} // namespace
