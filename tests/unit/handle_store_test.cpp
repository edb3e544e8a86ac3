// mcp::handle_store: opaque handles, expiry (sliding and fixed), principals, capacity, messages
// a model can act on, and concurrent updates of one handle; backends: two stores sharing one
// backend are two replicas (a handle made on one is used on the other), with the memory backend
// and with a backend written the way a shared store would be (JSON text, optimistic updates);
// and, through mcp::server, the isError results a model gets for a foreign or expired handle.
#include <mcp/server/handle_store.hpp>
#include <mcp/server/server.hpp>

#include "server/server_access.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;
using mcp::handle_error;

struct cart {
    std::vector<std::string> items;
};
MCP_DESCRIBE(cart, (items, "What is in the cart"))

handle_error::reason reason_of(const std::function<void()>& f, std::string* message = nullptr) {
    try {
        f();
    } catch (const handle_error& e) {
        if (message) *message = e.what();
        return e.why();
    }
    ADD_FAILURE() << "no handle_error thrown";
    return handle_error::reason::capacity;
}

TEST(handle_store, handles_are_opaque_random_and_prefixed) {
    mcp::handle_store<cart> store({.noun = "cart"});
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i) {
        auto h = store.create(mcp::unbound, {});
        ASSERT_EQ(h.size(), 5u + 32u) << h;
        EXPECT_EQ(h.rfind("cart_", 0), 0u);
        EXPECT_EQ(h.find_first_not_of("0123456789abcdef", 5), std::string::npos) << h;
        EXPECT_TRUE(seen.insert(h).second) << "duplicate handle " << h;
    }
    EXPECT_EQ(store.size(), 1000u);
}

TEST(handle_store, get_update_erase) {
    mcp::handle_store<cart> store;
    auto h = store.create(mcp::unbound, cart{{"apple"}});
    EXPECT_EQ(store.get(h).items, std::vector<std::string>{"apple"});
    auto n = store.update(h, {}, [](cart& c) {
        c.items.push_back("pear");
        return c.items.size();
    });
    EXPECT_EQ(n, 2u);
    EXPECT_EQ(store.get(h).items.size(), 2u);
    EXPECT_TRUE(store.erase(h));
    EXPECT_FALSE(store.erase(h));
    EXPECT_EQ(reason_of([&] { store.get(h); }), handle_error::reason::unknown);
    EXPECT_EQ(store.size(), 0u);
}

TEST(handle_store, messages_say_what_happened_and_how_to_recover) {
    mcp::handle_store<cart> store({.lifetime = 30min, .noun = "basket", .recovery = "Call create_basket."});
    std::string message;
    EXPECT_EQ(reason_of([&] { store.get("basket_nope"); }, &message), handle_error::reason::unknown);
    EXPECT_EQ(message,
              "Unknown basket \"basket_nope\": it was never issued, has been closed, or belongs to someone "
              "else. Call create_basket.");
    auto h = store.create(mcp::unbound, {});
    store.advance_clock(31min);
    EXPECT_EQ(reason_of([&] { store.get(h); }, &message), handle_error::reason::expired);
    EXPECT_EQ(message, "The basket \"" + h +
                           "\" has expired (a basket lasts 30 min after its last use). Call create_basket.");
    // Still "expired" (not "unknown") on a second try: the tombstone outlives the value.
    EXPECT_EQ(reason_of([&] { store.get(h); }), handle_error::reason::expired);
    // A hostile handle is not echoed back in full or with control characters.
    EXPECT_EQ(reason_of([&] { store.get(std::string(500, 'x') + "\n"); }, &message),
              handle_error::reason::unknown);
    EXPECT_LT(message.size(), 200u);
    EXPECT_EQ(message.find('\n'), std::string::npos);
    // A lifetime that is not a whole number of seconds is not rounded down.
    mcp::handle_store<cart> brief({.lifetime = 1500ms, .noun = "basket", .recovery = "Call create_basket."});
    auto b = brief.create(mcp::unbound, {});
    brief.advance_clock(2s);
    EXPECT_EQ(reason_of([&] { brief.get(b); }, &message), handle_error::reason::expired);
    EXPECT_NE(message.find("(a basket lasts 1.5 s after its last use)"), std::string::npos) << message;
}

TEST(handle_store, sliding_lifetime_renews_on_use_fixed_does_not) {
    mcp::handle_store<cart> sliding({.lifetime = 10s});
    auto a = sliding.create(mcp::unbound, {});
    for (int i = 0; i < 5; ++i) {
        sliding.advance_clock(6s);
        EXPECT_NO_THROW(sliding.get(a)) << "use " << i;
    }
    mcp::handle_store<cart> fixed({.lifetime = 10s, .sliding = false});
    auto b = fixed.create(mcp::unbound, {});
    fixed.advance_clock(6s);
    EXPECT_NO_THROW(fixed.get(b));
    fixed.advance_clock(6s);
    EXPECT_EQ(reason_of([&] { fixed.get(b); }), handle_error::reason::expired);
}

TEST(handle_store, a_handle_is_bound_to_its_principal) {
    mcp::handle_store<cart> store;
    auto mine = store.create({}, "alice");
    EXPECT_NO_THROW(store.get(mine, "alice"));
    std::string message;
    EXPECT_EQ(reason_of([&] { store.get(mine, "bob"); }, &message), handle_error::reason::unknown);
    EXPECT_EQ(reason_of([&] { store.get(mine); }), handle_error::reason::unknown);
    EXPECT_FALSE(store.erase(mine, "bob"));
    EXPECT_NO_THROW(store.get(mine, "alice"));
    // After expiry a foreign principal still learns nothing (unknown, not expired).
    store.advance_clock(2h);
    EXPECT_EQ(reason_of([&] { store.get(mine, "bob"); }), handle_error::reason::unknown);
    EXPECT_EQ(reason_of([&] { store.get(mine, "alice"); }), handle_error::reason::expired);
    // Unbound handles work for anyone holding them.
    auto shared = store.create(mcp::unbound, {});
    EXPECT_NO_THROW(store.get(shared, "carol"));
}

TEST(handle_store, capacity_is_bounded_and_expired_handles_make_room) {
    mcp::handle_store<cart> store({.lifetime = 1min, .max_handles = 3});
    for (int i = 0; i < 3; ++i) store.create(mcp::unbound, {});
    std::string message;
    EXPECT_EQ(reason_of([&] { store.create(mcp::unbound, {}); }, &message), handle_error::reason::capacity);
    EXPECT_NE(message.find("at most 3"), std::string::npos) << message;
    store.advance_clock(2min);
    EXPECT_NO_THROW(store.create(mcp::unbound, {}));
    EXPECT_EQ(store.size(), 1u);
}

TEST(handle_store, one_principal_cannot_take_the_whole_store) {
    mcp::handle_store<cart> store({.lifetime = 1min, .max_handles = 10, .max_handles_per_principal = 2});
    store.create({}, "alice");
    auto second = store.create({}, "alice");
    std::string message;
    EXPECT_EQ(reason_of([&] { store.create({}, "alice"); }, &message), handle_error::reason::capacity);
    EXPECT_NE(message.find("2 per caller"), std::string::npos) << message;
    EXPECT_NO_THROW(store.create({}, "bob"));        // others are not affected
    EXPECT_NO_THROW(store.create(mcp::unbound, {})); // nor handles for anyone
    EXPECT_TRUE(store.erase(second, "alice"));       // closing one makes room
    EXPECT_NO_THROW(store.create({}, "alice"));
    store.advance_clock(2min); // and so does expiry
    EXPECT_NO_THROW(store.create({}, "alice"));
    EXPECT_NO_THROW(store.create({}, "alice"));
}

TEST(handle_store, options_are_checked) {
    EXPECT_THROW(mcp::handle_store<cart>({.lifetime = 0ms}), std::invalid_argument);
    EXPECT_THROW(mcp::handle_store<cart>({.max_handles = 0}), std::invalid_argument);
}

TEST(handle_store, concurrent_updates_of_one_handle_are_serialised) {
    mcp::handle_store<cart> store;
    auto h = store.create(mcp::unbound, {});
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 500; ++i) store.update(h, {}, [](cart& c) { c.items.push_back("x"); });
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(store.get(h).items.size(), 4000u);
}

TEST(handle_store, a_value_outlives_erase_during_update) {
    mcp::handle_store<cart> store;
    auto h = store.create(mcp::unbound, cart{{"a"}});
    store.update(h, {}, [&](cart& c) {
        EXPECT_TRUE(store.erase(h)); // erasing from inside is allowed: the value stays alive
        c.items.push_back("b");
    });
    EXPECT_EQ(reason_of([&] { store.get(h); }), handle_error::reason::unknown);
}

/// Whether create(args...) compiles (a template, so that an invalid call is an answer, not an error).
template <class Store, class... Args> constexpr bool creates_from = requires(Store& s, Args... args) {
    s.create(args...);
};
/// Whether create({}, value) would take {} for mcp::unbound (it must not: the tag is explicit).
template <class Store> constexpr bool braces_are_unbound = requires(Store& s) {
    s.create({}, cart{});
};

TEST(handle_store, a_handle_for_anyone_is_asked_for_by_name) {
    // The one-argument create (an unbound handle by default) is gone: forgetting the principal
    // no longer compiles, and an empty principal passed by name is refused.
    static_assert(!creates_from<mcp::handle_store<cart>, cart>);
    static_assert(!braces_are_unbound<mcp::handle_store<cart>>);
    static_assert(creates_from<mcp::handle_store<cart>, mcp::unbound_t, cart>);
    mcp::handle_store<cart> store;
    EXPECT_THROW(store.create(cart{}, ""), std::invalid_argument);
    const std::string no_principal;
    EXPECT_THROW(store.create(cart{}, no_principal), std::invalid_argument);
    EXPECT_EQ(store.size(), 0u);
}

TEST(handle_store, an_update_that_throws_changes_nothing) {
    mcp::handle_store<cart> store;
    auto h = store.create(mcp::unbound, cart{{"a"}});
    EXPECT_THROW(store.update(h, {},
                              [](cart& c) {
                                  c.items.push_back("half");
                                  throw std::runtime_error("out of stock");
                              }),
                 std::runtime_error);
    EXPECT_EQ(store.get(h).items, std::vector<std::string>{"a"});
}

// ------------------------------------------------------------------ backends and replicas

TEST(handle_store, stores_sharing_a_memory_backend_are_replicas) {
    auto shared = std::make_shared<mcp::memory_handle_backend>(10);
    mcp::handle_store<cart> a(shared, {.lifetime = 10min, .noun = "cart"});
    mcp::handle_store<cart> b(shared, {.lifetime = 10min, .noun = "cart", .recovery = "Start again."});
    auto h = a.create(cart{{"apple"}}, "alice");
    b.update(h, "alice", [](cart& c) { c.items.push_back("pear"); });
    EXPECT_EQ(a.get(h, "alice").items, (std::vector<std::string>{"apple", "pear"}));
    EXPECT_EQ(b.size(), 1u);
    std::string message;
    EXPECT_EQ(reason_of([&] { b.get(h, "bob"); }, &message), handle_error::reason::unknown);
    EXPECT_NE(message.find("belongs to someone else. Start again."), std::string::npos) << message;
    // The clock is the backend's: every replica sees the handle expire at once.
    shared->advance_clock(11min);
    EXPECT_EQ(reason_of([&] { b.get(h, "alice"); }), handle_error::reason::expired);
    EXPECT_EQ(reason_of([&] { a.get(h, "alice"); }), handle_error::reason::expired);
    // advance_clock belongs to the backend's owner.
    EXPECT_THROW(a.advance_clock(1s), std::logic_error);
    // The bound is the backend's too, and the message says it.
    for (int i = 0; i < 10; ++i) a.create(mcp::unbound, {});
    EXPECT_EQ(reason_of([&] { b.create(mcp::unbound, {}); }, &message), handle_error::reason::capacity);
    EXPECT_NE(message.find("Too many open carts (at most 10)"), std::string::npos) << message;
    EXPECT_THROW(mcp::handle_store<cart>(nullptr), std::invalid_argument);
}

/// A backend written the way one over a shared store (Redis, a database) would be: values cross
/// it as JSON text, expiry follows its own clock, and update() is optimistic - read the value and
/// its version, compute without holding anything, write only if the version has not moved, else
/// run the change again. `between_read_and_write` lets a test interleave a conflicting write.
class text_backend final : public mcp::handle_backend {
public:
    std::function<void()> between_read_and_write;
    std::atomic<int> changes_run{0};

    bool put(const std::string& handle, const std::string& principal, mcp::json::value value,
             std::chrono::milliseconds lifetime) override {
        std::lock_guard lock(mu_);
        rows_[handle] = row{principal, mcp::to_json(value), now_ + lifetime, 1};
        return true;
    }
    mcp::handle_lookup get(std::string_view handle, std::string_view principal,
                           std::optional<std::chrono::milliseconds> renew) override {
        std::lock_guard lock(mu_);
        row* r = nullptr;
        const auto state = find(handle, principal, r);
        if (state != mcp::handle_state::live) return {state, nullptr};
        if (renew) r->expires = now_ + *renew;
        return {state, mcp::json::parse(r->text)};
    }
    mcp::handle_state
    update(std::string_view handle, std::string_view principal,
           std::optional<std::chrono::milliseconds> renew,
           const std::function<mcp::json::value(const mcp::json::value&)>& change) override {
        for (;;) {
            std::string text;
            std::uint64_t version = 0;
            {
                std::lock_guard lock(mu_);
                row* r = nullptr;
                if (const auto state = find(handle, principal, r); state != mcp::handle_state::live)
                    return state;
                text = r->text;
                version = r->version;
            }
            const auto next = mcp::to_json(change(mcp::json::parse(text)));
            ++changes_run;
            if (auto hook = std::exchange(between_read_and_write, nullptr)) hook();
            std::lock_guard lock(mu_);
            row* r = nullptr;
            if (const auto state = find(handle, principal, r); state != mcp::handle_state::live) return state;
            if (r->version != version) continue; // written meanwhile: compute again from that
            r->text = next;
            ++r->version;
            if (renew) r->expires = now_ + *renew;
            return mcp::handle_state::live;
        }
    }
    bool erase(std::string_view handle, std::string_view principal) override {
        std::lock_guard lock(mu_);
        row* r = nullptr;
        const auto state = find(handle, principal, r);
        if (state == mcp::handle_state::unknown) return false;
        rows_.erase(rows_.find(handle));
        return state == mcp::handle_state::live;
    }
    std::size_t size() const override {
        std::lock_guard lock(mu_);
        std::size_t n = 0;
        for (const auto& [h, r] : rows_) n += r.expires > now_;
        return n;
    }
    void advance_clock(std::chrono::milliseconds by) {
        std::lock_guard lock(mu_);
        now_ += by;
    }

private:
    struct row {
        std::string principal, text;
        std::chrono::milliseconds expires;
        std::uint64_t version = 0;
    };
    // Under mu_. Expired rows are kept (they answer "expired" until erased).
    mcp::handle_state find(std::string_view handle, std::string_view principal, row*& out) {
        auto it = rows_.find(handle);
        if (it == rows_.end()) return mcp::handle_state::unknown;
        if (!it->second.principal.empty() && it->second.principal != principal)
            return mcp::handle_state::unknown;
        if (it->second.expires <= now_) return mcp::handle_state::expired;
        out = &it->second;
        return mcp::handle_state::live;
    }
    mutable std::mutex mu_;
    std::map<std::string, row, std::less<>> rows_;
    std::chrono::milliseconds now_{0};
};

TEST(handle_store, replicas_over_a_backend_of_ones_own) {
    auto shared = std::make_shared<text_backend>();
    mcp::handle_store<cart> a(shared, {.lifetime = 1min, .noun = "cart", .recovery = "Call create_cart."});
    mcp::handle_store<cart> b(shared, {.lifetime = 1min, .noun = "cart", .recovery = "Call create_cart."});
    const auto h = a.create(cart{{"apple"}}, "alice");
    EXPECT_EQ(h.rfind("cart_", 0), 0u);
    EXPECT_EQ(b.get(h, "alice").items, std::vector<std::string>{"apple"});
    EXPECT_EQ(reason_of([&] { b.get(h, "bob"); }), handle_error::reason::unknown);
    EXPECT_FALSE(b.erase(h, "bob"));

    // An update on A meets a write by B between its read and its write: the backend runs A's
    // change again on B's result, so neither is lost, and A's update returns its last run.
    shared->between_read_and_write = [&] {
        b.update(h, "alice", [](cart& c) { c.items.push_back("from B"); });
    };
    const auto count = a.update(h, "alice", [](cart& c) {
        c.items.push_back("from A");
        return c.items.size();
    });
    EXPECT_EQ(count, 3u);
    EXPECT_EQ(a.get(h, "alice").items, (std::vector<std::string>{"apple", "from B", "from A"}));
    EXPECT_EQ(shared->changes_run.load(), 3); // A, B, A again

    // Sliding lifetime and expiry are the backend's, whichever replica renews.
    shared->advance_clock(40s);
    b.get(h, "alice"); // renewed: a minute from now
    shared->advance_clock(40s);
    EXPECT_NO_THROW(a.get(h, "alice"));
    shared->advance_clock(2min);
    std::string message;
    EXPECT_EQ(reason_of([&] { b.get(h, "alice"); }, &message), handle_error::reason::expired);
    EXPECT_EQ(message, "The cart \"" + h +
                           "\" has expired (a cart lasts 1 min after its last use). Call create_cart.");
    EXPECT_FALSE(a.erase(h, "alice"));
    EXPECT_EQ(reason_of([&] { b.get(h, "alice"); }), handle_error::reason::unknown);
}

TEST(handle_store, concurrent_updates_through_two_replicas_lose_nothing) {
    for (const bool optimistic : {false, true}) {
        std::shared_ptr<mcp::handle_backend> shared;
        if (optimistic)
            shared = std::make_shared<text_backend>();
        else
            shared = std::make_shared<mcp::memory_handle_backend>();
        mcp::handle_store<cart> a(shared), b(shared);
        const auto h = a.create(mcp::unbound, {});
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                auto& store = t % 2 ? a : b;
                for (int i = 0; i < 200; ++i) store.update(h, {}, [](cart& c) { c.items.push_back("x"); });
            });
        for (auto& t : threads) t.join();
        EXPECT_EQ(b.get(h).items.size(), 800u) << (optimistic ? "optimistic backend" : "memory backend");
    }
}

// ------------------------------------------------------------------ through a server

struct created {
    std::string cart;
};
MCP_DESCRIBE(created, (cart, "The cart's handle"))
struct cart_args {
    std::string cart;
    std::string item;
};
MCP_DESCRIBE(cart_args, (cart, "Handle from create_cart"), (item, "What to add"))

/// One replica: a server whose cart tools keep their carts in `backend`.
struct replica {
    mcp::handle_store<cart> carts;
    mcp::server server{mcp::server_options{.info = {"carts", "1"}}};

    explicit replica(std::shared_ptr<mcp::handle_backend> backend)
        : carts(std::move(backend),
                {.lifetime = 10min, .noun = "cart", .recovery = "Call create_cart to start again."}) {
        server.add_tool("create_cart", "Start a cart",
                        [this](mcp::context& ctx) -> created { return {carts.create(ctx, cart{})}; });
        server.add_tool("add", "Add an item", [this](const cart_args& a, mcp::context& ctx) {
            return std::to_string(carts.update(ctx, a.cart, [&](cart& c) {
                c.items.push_back(a.item);
                return c.items.size();
            }));
        });
    }

    /// tools/call of the stateless era as `principal` would send it over HTTP; the result.
    mcp::json::object call(const std::string& principal, const std::string& tool, mcp::json::object args) {
        struct stream : mcp::request_stream {
            std::mutex mu;
            std::condition_variable cv;
            std::optional<std::string> response;
            void notify(std::string) override {}
            void respond(std::string m, const mcp::error*) override {
                std::lock_guard l(mu);
                response = std::move(m);
                cv.notify_all();
            }
        };
        auto s = std::make_shared<stream>();
        auto origin = std::make_shared<mcp::message_origin>();
        origin->principal = principal;
        const mcp::json::object meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                     {"io.modelcontextprotocol/clientCapabilities", mcp::json::object{}}};
        mcp::detail::server_access::handle_request(
            server,
            {std::int64_t{1}, "tools/call",
             mcp::json::object{{"name", tool}, {"arguments", std::move(args)}, {"_meta", meta}}},
            s, {}, origin);
        std::unique_lock l(s->mu);
        EXPECT_TRUE(s->cv.wait_for(l, 10s, [&] { return s->response.has_value(); })) << "no response";
        auto reply = mcp::json::parse(s->response.value_or("{}")).as_object();
        EXPECT_TRUE(reply.contains("result")) << s->response.value_or("");
        return reply.contains("result") ? reply.at("result").as_object() : mcp::json::object{};
    }
};

std::string text_of(const mcp::json::object& result) {
    return std::string(result.at("content").at(0).at("text").as_string());
}

TEST(handle_store, a_handle_is_the_callers_on_any_replica_and_a_model_is_told_how_to_recover) {
    auto shared = std::make_shared<mcp::memory_handle_backend>();
    replica one(shared), two(shared);
    auto made = one.call("alice", "create_cart", {});
    ASSERT_FALSE(made.contains("isError")) << mcp::to_json(made);
    const std::string h(made.at("structuredContent").at("cart").as_string());

    // The other replica serves alice's next call: the cart is there.
    auto added = two.call("alice", "add", {{"cart", h}, {"item", "tea"}});
    EXPECT_FALSE(added.contains("isError")) << mcp::to_json(added);
    EXPECT_EQ(text_of(added), "1");

    // bob holds the handle but is not its owner: a tool error the model can act on, and
    // nothing that tells him the cart exists.
    auto foreign = two.call("bob", "add", {{"cart", h}, {"item", "coffee"}});
    EXPECT_EQ(foreign.at("isError"), true);
    EXPECT_EQ(text_of(foreign),
              "Unknown cart \"" + h +
                  "\": it was never issued, has been closed, or belongs to someone else. Call "
                  "create_cart to start again.");
    // Without a principal (stdio, no authentication) the same: the cart was bound to alice.
    EXPECT_EQ(one.call("", "add", {{"cart", h}, {"item", "x"}}).at("isError"), true);
    EXPECT_EQ(one.carts.get(h, "alice").items, std::vector<std::string>{"tea"});

    // Expired: the model is told so, and how to go on.
    shared->advance_clock(11min);
    auto late = one.call("alice", "add", {{"cart", h}, {"item", "milk"}});
    EXPECT_EQ(late.at("isError"), true);
    EXPECT_NE(text_of(late).find("has expired (a cart lasts 10 min after its last use). Call create_cart"),
              std::string::npos)
        << text_of(late);

    // No principal at all: the handle is for whoever holds it.
    const std::string anyones(one.call("", "create_cart", {}).at("structuredContent").at("cart").as_string());
    EXPECT_EQ(text_of(two.call("", "add", {{"cart", anyones}, {"item", "x"}})), "1");
    EXPECT_EQ(text_of(two.call("carol", "add", {{"cart", anyones}, {"item", "y"}})), "2");
}

} // namespace
