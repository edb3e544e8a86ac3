// basket_server: stateful tools without sessions, as the 2026-07-28 tools page advises.
//
// create_basket returns an opaque handle; add_item, view_basket and checkout take it as an
// argument. The state lives in an mcp::handle_store, not in a session, so the server works the
// same for a stateless HTTP client, a stateful one, or stdio. A handle that expired, was checked
// out, or belongs to someone else gives an isError result telling the model to start over.
//
//   basket_server [--lifetime-ms N]      (stdio)
#include <mcp/server/handle_store.hpp>
#include <mcp/server/server.hpp>

#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

struct line_item {
    std::string sku;
    int quantity = 1;
    double unit_price = 0;
};
MCP_DESCRIBE(line_item, (sku, "Product code"), (quantity, "How many"), (unit_price, "Price of one, in EUR"))

struct basket {
    std::vector<line_item> items;
};

// A tiny catalogue, so that prices come from the server and not from the model.
const std::map<std::string, double> catalogue = {
    {"apple", 0.5}, {"bread", 2.2}, {"coffee", 7.9}, {"milk", 1.1}};

struct created {
    std::string basket;
};
MCP_DESCRIBE(created, (basket, "The basket handle: pass it to add_item, view_basket and checkout"))

struct add_args {
    std::string basket;
    std::string sku;
    int quantity = 1;
};
MCP_DESCRIBE(add_args, (basket, "Handle from create_basket"),
             (sku, "Product code: apple, bread, coffee or milk"),
             (quantity, "How many", mcp::field::range(1, 99)))

struct basket_args {
    std::string basket;
};
MCP_DESCRIBE(basket_args, (basket, "Handle from create_basket"))

struct contents {
    std::vector<line_item> items;
    double total = 0;
};
MCP_DESCRIBE(contents, (items, "What is in the basket"), (total, "Sum, in EUR"))

struct receipt {
    std::string order;
    double total = 0;
    int items = 0;
};
MCP_DESCRIBE(receipt, (order, "Order number"), (total, "Amount charged, in EUR"),
             (items, "Number of articles"))

contents summarise(const basket& b) {
    contents c{b.items, 0};
    for (const auto& i : b.items) c.total += i.unit_price * i.quantity;
    return c;
}

} // namespace

int main(int argc, char** argv) {
    mcp::handle_store_options store_options{.lifetime = std::chrono::minutes(30),
                                            .noun = "basket",
                                            .recovery = "Call create_basket to start a new basket."};
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--lifetime-ms") == 0)
            store_options.lifetime = std::chrono::milliseconds(std::stoll(argv[++i]));
    mcp::handle_store<basket> baskets(store_options);

    mcp::server server({.info = {.name = "basket", .version = "1.0.0"},
                        .instructions = "Create a basket, add items by product code, then check out."});
    // Over stdio there is no authenticated principal; over HTTP this would be the caller's.
    const std::string principal;

    server.add_tool("create_basket", "Start an empty shopping basket and return its handle",
                    [&](mcp::context&) -> created { return {baskets.create({}, principal)}; });
    server.add_tool("add_item", "Put a product into a basket",
                    [&](const add_args& a, mcp::context&) -> contents {
                        auto price = catalogue.find(a.sku);
                        if (price == catalogue.end())
                            throw std::invalid_argument("Unknown product \"" + a.sku +
                                                        "\": choose apple, bread, coffee or milk.");
                        return baskets.update(a.basket, principal, [&](basket& b) {
                            b.items.push_back({a.sku, a.quantity, price->second});
                            return summarise(b);
                        });
                    });
    server.add_tool("view_basket", "Show what a basket holds",
                    [&](const basket_args& a, mcp::context&) -> contents {
                        return summarise(baskets.get(a.basket, principal));
                    });
    server.add_tool("checkout", "Pay for a basket; the handle is closed afterwards",
                    [&](const basket_args& a, mcp::context&) -> receipt {
                        const auto c = summarise(baskets.get(a.basket, principal));
                        if (c.items.empty())
                            throw std::invalid_argument("The basket is empty: add_item first.");
                        if (!baskets.erase(a.basket, principal))
                            throw std::invalid_argument("The basket was checked out meanwhile. " +
                                                        baskets.options().recovery);
                        int n = 0;
                        for (const auto& i : c.items) n += i.quantity;
                        return {"order-" + a.basket.substr(a.basket.size() - 8), c.total, n};
                    });
    return mcp::serve_stdio(server);
}
