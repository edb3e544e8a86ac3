// basket_server: stateful tools without sessions, as the 2026-07-28 tools page advises.
//
// create_basket returns an opaque handle; add_item, view_basket and checkout take it as an
// argument. The state lives in an mcp::handle_store, not in a session, so the server works the
// same for a stateless HTTP client, a stateful one, or stdio (and replicas sharing the store's
// backend would serve each other's baskets). Each basket belongs to the caller who created it:
// over HTTP with bearer tokens, to that token's principal. A handle that expired, was checked
// out, or belongs to someone else gives an isError result telling the model to start over.
//
//   basket_server [--lifetime-ms N]                      MCP over stdin/stdout
//   basket_server --http HOST:PORT [--lifetime-ms N]     Streamable HTTP at http://HOST:PORT/mcp,
//                                                        without sessions in every era
//
// BASKET_TOKENS="alice=TOKEN,bob=TOKEN" (HTTP only): accept these bearer tokens, each for the
// principal before its "=", and refuse requests without one (401). Tokens come from the
// environment, not the command line, which other users of the machine can read.
//
// Or, over HTTP, access tokens of an authorization server: --oauth-issuer URL
// [--oauth-audience URL] [--oauth-scope SCOPE]... (each basket then belongs to the token's subject).
#include <mcp/auth/oauth_flags.hpp>
#include <mcp/http/bearer.hpp>
#include <mcp/http/server.hpp>
#include <mcp/server/handle_store.hpp>
#include <mcp/server/server.hpp>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
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
// The store keeps values as JSON (so that a shared backend could hold them): describe them.
MCP_DESCRIBE(basket, (items, "What is in the basket"))

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

int usage() {
    std::cerr << "usage: basket_server [--http HOST:PORT] [--lifetime-ms N] " << mcp::auth::oauth_flags_usage
              << "\n"
                 "  BASKET_TOKENS=\"alice=TOKEN,bob=TOKEN\": bearer tokens accepted over HTTP\n";
    return 2;
}

template <class Number> bool parse_number(std::string_view v, Number& out) {
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    return ec == std::errc() && end == v.data() + v.size();
}

/// BASKET_TOKENS: "principal=token" entries separated by commas. False (with the reason on
/// stderr) when an entry is malformed or a token is refused.
bool load_tokens(std::string_view list, mcp::http::bearer_tokens& tokens) {
    while (!list.empty()) {
        const auto comma = list.find(',');
        const std::string_view entry = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
        if (entry.empty()) continue;
        const auto eq = entry.find('=');
        if (eq == 0 || eq == std::string_view::npos || eq + 1 == entry.size()) {
            std::cerr << "basket_server: BASKET_TOKENS entries are principal=token\n";
            return false;
        }
        try {
            tokens.add(entry.substr(eq + 1), std::string(entry.substr(0, eq)));
        } catch (const std::invalid_argument& e) {
            std::cerr << "basket_server: BASKET_TOKENS: " << e.what() << "\n"; // never the token
            return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    mcp::handle_store_options store_options{.lifetime = std::chrono::minutes(30),
                                            .noun = "basket",
                                            .recovery = "Call create_basket to start a new basket."};
    std::optional<mcp::http::server_options> http;
    mcp::auth::oauth_flags oauth;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        try {
            if (oauth.consume(argc, argv, i)) continue;
        } catch (const std::invalid_argument&) {
            return usage();
        }
        if (arg == "--lifetime-ms" && i + 1 < argc) {
            long long ms = 0;
            if (!parse_number(argv[++i], ms) || ms <= 0) return usage();
            store_options.lifetime = std::chrono::milliseconds(ms);
        } else if (arg == "--http" && i + 1 < argc) {
            const std::string_view where = argv[++i];
            const auto colon = where.rfind(':');
            http.emplace();
            if (colon == std::string_view::npos || !parse_number(where.substr(colon + 1), http->port))
                return usage();
            http->address = std::string(where.substr(0, colon));
        } else {
            return usage();
        }
    }
    mcp::handle_store<basket> baskets(store_options);

    mcp::server server({.info = {.name = "basket", .version = "1.0.0"},
                        .instructions = "Create a basket, add items by product code, then check out."});
    // Every call passes its context: a basket is bound to the principal that created it (none
    // over stdio or without tokens, where the one who holds the handle may use it).
    server.add_tool("create_basket", "Start an empty shopping basket and return its handle",
                    [&](mcp::context& ctx) -> created { return {baskets.create(ctx, basket{})}; });
    server.add_tool("add_item", "Put a product into a basket",
                    [&](const add_args& a, mcp::context& ctx) -> contents {
                        auto price = catalogue.find(a.sku);
                        if (price == catalogue.end())
                            throw std::invalid_argument("Unknown product \"" + a.sku +
                                                        "\": choose apple, bread, coffee or milk.");
                        return baskets.update(ctx, a.basket, [&](basket& b) {
                            b.items.push_back({a.sku, a.quantity, price->second});
                            return summarise(b);
                        });
                    });
    server.add_tool("view_basket", "Show what a basket holds",
                    [&](const basket_args& a, mcp::context& ctx) -> contents {
                        return summarise(baskets.get(ctx, a.basket));
                    });
    server.add_tool("checkout", "Pay for a basket; the handle is closed afterwards",
                    [&](const basket_args& a, mcp::context& ctx) -> receipt {
                        const auto c = summarise(baskets.get(ctx, a.basket));
                        if (c.items.empty())
                            throw std::invalid_argument("The basket is empty: add_item first.");
                        if (!baskets.erase(ctx, a.basket))
                            throw std::invalid_argument("The basket was checked out meanwhile. " +
                                                        baskets.options().recovery);
                        int n = 0;
                        for (const auto& i : c.items) n += i.quantity;
                        return {"order-" + a.basket.substr(a.basket.size() - 8), c.total, n};
                    });
    if (!http) return oauth.enabled() ? usage() : mcp::serve_stdio(server); // OAuth is for HTTP
    // No sessions for any era: everything a call needs is in the call and the store.
    http->stateful = false;
    mcp::http::bearer_tokens tokens;
    if (const char* list = std::getenv("BASKET_TOKENS"); list && !load_tokens(list, tokens)) return 2;
    if (!tokens.empty() && oauth.enabled()) {
        std::cerr << "basket_server: BASKET_TOKENS and --oauth-issuer exclude each other\n";
        return 2;
    }
    if (!tokens.empty()) http->authenticate = tokens.authenticator("basket");
    return mcp::auth::serve(server, std::move(*http), oauth);
}
