// examples/basket_server as a child process, over stdio and over Streamable HTTP without
// sessions: state across tool calls through handles, each basket its creator's (over HTTP, the
// principal of a bearer token), and the isError results a model gets for a bad, foreign or
// expired handle.
#include "support/child_server.hpp"
#include "support/raw_process.hpp"

#include <mcp/client/client.hpp>
#include <mcp/http/client_transport.hpp>
#include <mcp/http/fetch.hpp>
#include <mcp/json/json.hpp>

#include <gtest/gtest.h>

#include <thread>

namespace {

namespace json = mcp::json;

class basket_session {
public:
    explicit basket_session(std::vector<std::string> extra = {}) : p_(command(std::move(extra))) {
        send(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
             R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
        EXPECT_TRUE(reply().contains("result"));
        send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    }
    ~basket_session() {
        p_.close_stdin();
        EXPECT_EQ(p_.wait(), 0);
    }

    json::object call(const std::string& tool, json::object args) {
        json::object req{{"jsonrpc", "2.0"}, {"id", ++id_}, {"method", "tools/call"}};
        req["params"] = json::object{{"name", tool}, {"arguments", std::move(args)}};
        send(json::serialize(req));
        auto r = reply();
        EXPECT_TRUE(r.contains("result")) << json::serialize(r);
        return r.contains("result") ? r.at("result").as_object() : json::object{};
    }

    static std::string text(const json::object& result) {
        return std::string(result.at("content").at(0).at("text").as_string());
    }

private:
    static std::vector<std::string> command(std::vector<std::string> extra) {
        extra.insert(extra.begin(), std::string(MCPXX_BINARY_DIR) + "/basket_server");
        return extra;
    }
    void send(const std::string& line) { ASSERT_TRUE(p_.write(line + "\n")); }
    json::object reply() {
        auto line = p_.read_line();
        EXPECT_TRUE(line) << "no reply; stderr: " << p_.stderr_text();
        return line ? json::parse(*line).as_object() : json::object{};
    }
    mcp::test::raw_process p_;
    int id_ = 0;
};

TEST(basket_example, create_add_view_checkout) {
    basket_session s;
    auto created = s.call("create_basket", {});
    ASSERT_FALSE(created.contains("isError")) << json::serialize(created);
    const std::string basket(created.at("structuredContent").at("basket").as_string());
    EXPECT_EQ(basket.rfind("basket_", 0), 0u);

    auto added = s.call("add_item", {{"basket", basket}, {"sku", "coffee"}, {"quantity", 2}});
    EXPECT_EQ(added.at("structuredContent").at("total").as_double(), 15.8);
    s.call("add_item", {{"basket", basket}, {"sku", "apple"}});
    auto view = s.call("view_basket", {{"basket", basket}});
    EXPECT_EQ(view.at("structuredContent").at("items").as_array().size(), 2u);
    EXPECT_DOUBLE_EQ(view.at("structuredContent").at("total").as_double(), 16.3);

    auto paid = s.call("checkout", {{"basket", basket}});
    EXPECT_EQ(paid.at("structuredContent").at("items"), 3);
    // Checked out: the handle is closed, and the model is told how to go on.
    auto again = s.call("view_basket", {{"basket", basket}});
    EXPECT_EQ(again.at("isError"), true);
    EXPECT_NE(basket_session::text(again).find("Call create_basket to start a new basket."),
              std::string::npos)
        << basket_session::text(again);
}

TEST(basket_example, bad_handles_and_products_are_tool_errors) {
    basket_session s;
    auto forged =
        s.call("add_item", {{"basket", "basket_00000000000000000000000000000000"}, {"sku", "milk"}});
    EXPECT_EQ(forged.at("isError"), true);
    EXPECT_NE(basket_session::text(forged).find("Unknown basket"), std::string::npos);
    const std::string basket(s.call("create_basket", {}).at("structuredContent").at("basket").as_string());
    auto unknown_sku = s.call("add_item", {{"basket", basket}, {"sku", "caviar"}});
    EXPECT_EQ(unknown_sku.at("isError"), true);
    EXPECT_NE(basket_session::text(unknown_sku).find("Unknown product"), std::string::npos);
    auto empty = s.call("checkout", {{"basket", basket}});
    EXPECT_EQ(empty.at("isError"), true);
}

TEST(basket_example, an_expired_basket_says_so) {
    basket_session s({"--lifetime-ms", "50"});
    const std::string basket(s.call("create_basket", {}).at("structuredContent").at("basket").as_string());
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    auto late = s.call("add_item", {{"basket", basket}, {"sku", "bread"}});
    EXPECT_EQ(late.at("isError"), true);
    EXPECT_NE(basket_session::text(late).find("has expired"), std::string::npos)
        << basket_session::text(late);
}

// ------------------------------------------------------------------ over HTTP

const std::string alice_token = "alice-token-0123456789", bob_token = "bob-token-0123456789";

/// basket_server --http on a free loopback port, accepting alice's and bob's tokens.
mcp::test::child_server http_basket() {
    return mcp::test::child_server(
        {std::string(MCPXX_BINARY_DIR) + "/basket_server", "--http", "127.0.0.1:{port}"},
        {{"BASKET_TOKENS", "alice=" + alice_token + ",bob=" + bob_token}});
}

/// A 2026-07-28 client (the default: no initialize, no session) with `token`.
std::unique_ptr<mcp::client> connect_as(const mcp::test::child_server& s, const std::string& token) {
    auto c = std::make_unique<mcp::client>(mcp::client_options{.info = {.name = "shopper", .version = "1"}});
    c->connect(mcp::http::make_client_transport({.url = s.url("/mcp"),
                                                 .headers = {{"Authorization", "Bearer " + token}},
                                                 .log = [](std::string_view) {}}));
    EXPECT_TRUE(c->stateless());
    return c;
}

std::string text_of(const mcp::call_tool_result& r) {
    const auto* t = r.content.empty() ? nullptr : mcp::text_of(r.content[0]);
    return t ? *t : "";
}

json::object structured(const mcp::call_tool_result& r) {
    EXPECT_FALSE(r.is_error.value_or(false)) << text_of(r);
    return r.structured_content && r.structured_content->is_object() ? r.structured_content->as_object()
                                                                     : json::object{};
}

TEST(basket_example, over_stateless_http_a_basket_is_its_creators) {
    auto server = http_basket();
    ASSERT_TRUE(server.ready()) << "basket_server --http did not start";
    auto alice = connect_as(server, alice_token);
    auto bob = connect_as(server, bob_token);

    const std::string basket(structured(alice->call_tool("create_basket")).at("basket").as_string());
    EXPECT_EQ(basket.rfind("basket_", 0), 0u);
    auto added =
        structured(alice->call_tool("add_item", {{"basket", basket}, {"sku", "coffee"}, {"quantity", 2}}));
    EXPECT_EQ(added.at("total").as_double(), 15.8);
    structured(alice->call_tool("add_item", {{"basket", basket}, {"sku", "apple"}}));

    // bob has the handle (it leaked, or he guessed it), but the basket is alice's: he is told,
    // as for a basket that does not exist, how to go on; the basket does not change.
    for (const auto& [tool, args] : std::vector<std::pair<std::string, json::object>>{
             {"add_item", {{"basket", basket}, {"sku", "milk"}}},
             {"view_basket", {{"basket", basket}}},
             {"checkout", {{"basket", basket}}}}) {
        auto refused = bob->call_tool(tool, args);
        EXPECT_TRUE(refused.is_error.value_or(false)) << tool;
        EXPECT_EQ(text_of(refused),
                  "Unknown basket \"" + basket +
                      "\": it was never issued, has been closed, or belongs to someone else. "
                      "Call create_basket to start a new basket.")
            << tool;
    }

    auto paid = structured(alice->call_tool("checkout", {{"basket", basket}}));
    EXPECT_EQ(paid.at("items"), 3);
    EXPECT_DOUBLE_EQ(paid.at("total").as_double(), 16.3);
    auto again = alice->call_tool("view_basket", {{"basket", basket}});
    EXPECT_TRUE(again.is_error.value_or(false));
    EXPECT_NE(text_of(again).find("Call create_basket to start a new basket."), std::string::npos);
    alice->close();
    bob->close();
}

TEST(basket_example, over_http_there_are_no_sessions_and_no_token_is_401) {
    auto server = http_basket();
    ASSERT_TRUE(server.ready()) << "basket_server --http did not start";
    const std::string initialize =
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
        R"("capabilities":{},"clientInfo":{"name":"old","version":"1"}}})";
    auto post = [&](mcp::http::header_list headers) {
        headers.emplace_back("Content-Type", "application/json");
        headers.emplace_back("Accept", "application/json, text/event-stream");
        return mcp::http::fetch(
            {.method = "POST", .url = server.url("/mcp"), .headers = std::move(headers), .body = initialize});
    };
    auto nobody = post({});
    EXPECT_EQ(nobody.status, 401);
    EXPECT_EQ(nobody.header("WWW-Authenticate").value_or(""), "Bearer realm=\"basket\"");
    EXPECT_EQ(post({{"Authorization", "Bearer not-a-token-at-all"}}).status, 401);
    // A client of the initialize era is served too, but gets no session: its next request
    // stands on its own, as a 2026-07-28 one does.
    auto old = post({{"Authorization", "Bearer " + alice_token}});
    EXPECT_EQ(old.status, 200) << old.body;
    EXPECT_FALSE(old.header("Mcp-Session-Id"));
}

} // namespace
