// client/listing_walk.hpp - the bounds of one walk over a server's pages (nextCursor), as
// client_options::listing sets them: pages, items, bytes, cursor size, and no cursor twice.
#pragma once

#include <mcp/client/client.hpp>

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

namespace mcp::detail {

class listing_walk {
public:
    /// `what` names the listing in errors ("tools", "resource templates"); `items_key` is the
    /// member of a page's result that holds its items ("tools", "resourceTemplates").
    listing_walk(const listing_limits& limits, const char* what, const char* items_key)
        : limits_(limits), what_(what), items_key_(items_key) {}

    /// Count a page as received (its result, before it is converted): its bytes, its items and
    /// its nextCursor. Throws mcp::error when the walk passes a bound (see listing_limits), or
    /// when the nextCursor is one the walk already followed (the walk would never end).
    void count(const json::value& result);

private:
    [[noreturn]] void exceeded(const char* bound, std::size_t limit, std::size_t value,
                               const std::string& message) const;

    const listing_limits& limits_;
    const char* what_;
    const char* items_key_;
    std::size_t pages_ = 0;
    std::size_t items_ = 0;
    std::size_t bytes_ = 0;
    std::set<std::string, std::less<>> cursors_;
};

} // namespace mcp::detail
