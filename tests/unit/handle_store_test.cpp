// mcp::handle_store: opaque handles, expiry (sliding and fixed), principals, capacity, messages
// a model can act on, and concurrent updates of one handle.
#include <mcp/server/handle_store.hpp>

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;
using mcp::handle_error;

struct cart {
    std::vector<std::string> items;
};

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
        auto h = store.create({});
        ASSERT_EQ(h.size(), 5u + 32u) << h;
        EXPECT_EQ(h.rfind("cart_", 0), 0u);
        EXPECT_EQ(h.find_first_not_of("0123456789abcdef", 5), std::string::npos) << h;
        EXPECT_TRUE(seen.insert(h).second) << "duplicate handle " << h;
    }
    EXPECT_EQ(store.size(), 1000u);
}

TEST(handle_store, get_update_erase) {
    mcp::handle_store<cart> store;
    auto h = store.create(cart{{"apple"}});
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
    auto h = store.create({});
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
    auto b = brief.create({});
    brief.advance_clock(2s);
    EXPECT_EQ(reason_of([&] { brief.get(b); }, &message), handle_error::reason::expired);
    EXPECT_NE(message.find("(a basket lasts 1.5 s after its last use)"), std::string::npos) << message;
}

TEST(handle_store, sliding_lifetime_renews_on_use_fixed_does_not) {
    mcp::handle_store<cart> sliding({.lifetime = 10s});
    auto a = sliding.create({});
    for (int i = 0; i < 5; ++i) {
        sliding.advance_clock(6s);
        EXPECT_NO_THROW(sliding.get(a)) << "use " << i;
    }
    mcp::handle_store<cart> fixed({.lifetime = 10s, .sliding = false});
    auto b = fixed.create({});
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
    auto shared = store.create({});
    EXPECT_NO_THROW(store.get(shared, "carol"));
}

TEST(handle_store, capacity_is_bounded_and_expired_handles_make_room) {
    mcp::handle_store<cart> store({.lifetime = 1min, .max_handles = 3});
    for (int i = 0; i < 3; ++i) store.create({});
    std::string message;
    EXPECT_EQ(reason_of([&] { store.create({}); }, &message), handle_error::reason::capacity);
    EXPECT_NE(message.find("at most 3"), std::string::npos) << message;
    store.advance_clock(2min);
    EXPECT_NO_THROW(store.create({}));
    EXPECT_EQ(store.size(), 1u);
}

TEST(handle_store, options_are_checked) {
    EXPECT_THROW(mcp::handle_store<cart>({.lifetime = 0ms}), std::invalid_argument);
    EXPECT_THROW(mcp::handle_store<cart>({.max_handles = 0}), std::invalid_argument);
}

TEST(handle_store, concurrent_updates_of_one_handle_are_serialised) {
    mcp::handle_store<cart> store;
    auto h = store.create({});
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
    auto h = store.create(cart{{"a"}});
    store.update(h, {}, [&](cart& c) {
        EXPECT_TRUE(store.erase(h)); // erasing from inside is allowed: the value stays alive
        c.items.push_back("b");
    });
    EXPECT_EQ(reason_of([&] { store.get(h); }), handle_error::reason::unknown);
}

} // namespace
