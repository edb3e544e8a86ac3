// The choice of the session that makes way for a new one (src/http/session_lru.hpp): the least
// recently used idle session, the owner's own when it is at its cap, busy ones set aside and
// listed again once idle, and refusals only when everything in reach is busy.
#include "http/session_lru.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

using mcp::http::detail::session_lru;
using verdict = session_lru::verdict;

struct lru_test : ::testing::Test {
    session_lru lru;
    std::set<std::string> busy;
    int asked = 0; // how often the busy predicate ran
    session_lru::choice room(const std::string& owner, std::size_t total, std::size_t per_owner = 0) {
        return lru.make_room(owner, {total, per_owner}, [this](const std::string& id) {
            ++asked;
            return busy.count(id) != 0;
        });
    }
};

TEST_F(lru_test, the_least_recently_used_idle_session_goes) {
    lru.add("a", "x");
    lru.add("b", "y");
    lru.add("c", "x");
    EXPECT_EQ(room("z", 4).what, verdict::room);
    lru.touch("a"); // now b is the least recently used
    auto c = room("z", 3);
    EXPECT_EQ(c.what, verdict::evict);
    EXPECT_EQ(c.victim, "b");
    lru.remove("b");
    EXPECT_EQ(lru.size(), 2u);
    EXPECT_EQ(lru.count_of("y"), 0u);
    EXPECT_EQ(lru.count_of("x"), 2u);
}

TEST_F(lru_test, busy_sessions_are_set_aside_until_idle) {
    for (auto id : {"a", "b", "c"}) lru.add(id, "x");
    busy = {"a", "b"};
    auto c = room("z", 3);
    EXPECT_EQ(c.what, verdict::evict);
    EXPECT_EQ(c.victim, "c");
    lru.remove("c");
    lru.add("d", "z");
    busy.insert("d");
    asked = 0;
    EXPECT_EQ(room("z", 3).what, verdict::all_busy);
    EXPECT_EQ(asked, 1); // a and b were set aside already: not asked again
    asked = 0;
    EXPECT_EQ(room("z", 3).what, verdict::all_busy);
    EXPECT_EQ(asked, 0);
    busy.erase("a");
    lru.relist([this](const std::string& id) { return busy.count(id) != 0; });
    c = room("z", 3);
    EXPECT_EQ(c.what, verdict::evict);
    EXPECT_EQ(c.victim, "a");
    // A touch lists a session again at once.
    busy.erase("d");
    lru.touch("d");
    lru.remove("a");
    lru.add("e", "z");
    c = room("z", 3);
    EXPECT_EQ(c.victim, "d");
}

TEST_F(lru_test, an_owner_at_its_cap_loses_its_own_oldest_session) {
    lru.add("other", "y"); // the oldest of all
    lru.add("x1", "x");
    lru.add("x2", "x");
    auto c = room("x", 100, 2);
    EXPECT_EQ(c.what, verdict::evict);
    EXPECT_EQ(c.victim, "x1");
    busy = {"x1", "x2"};
    EXPECT_EQ(room("x", 100, 2).what, verdict::owner_busy);
    EXPECT_EQ(room("y", 100, 2).what, verdict::room); // another owner is not affected
    EXPECT_EQ(room("y", 3, 2).what, verdict::evict);  // ... until the table is full
}

TEST_F(lru_test, removing_and_touching_unknown_sessions_is_harmless) {
    lru.remove("nobody");
    lru.touch("nobody");
    lru.add("a", "x");
    lru.add("a", "x"); // added twice: counted once
    EXPECT_EQ(lru.size(), 1u);
    EXPECT_EQ(lru.count_of("x"), 1u);
    busy = {"a"};
    EXPECT_EQ(room("x", 1).what, verdict::all_busy);
    lru.remove("a"); // set aside, then gone
    lru.relist([](const std::string&) { return false; });
    EXPECT_EQ(lru.size(), 0u);
    EXPECT_EQ(room("x", 1).what, verdict::room);
}

} // namespace
