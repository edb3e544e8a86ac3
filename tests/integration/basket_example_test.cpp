// examples/basket_server as a child process over stdio: state across tool calls through handles,
// and the isError results a model gets for a bad, foreign or expired handle.
#include "support/raw_process.hpp"

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

} // namespace
