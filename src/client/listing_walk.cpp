// client/listing_walk.cpp - see listing_walk.hpp.
#include "client/listing_walk.hpp"

namespace mcp::detail {

void listing_walk::exceeded(const char* bound, std::size_t limit, std::size_t value,
                            const std::string& message) const {
    throw error(error_code::internal_error, "listing " + std::string(what_) + ": " + message,
                json::object{{"listing", what_},
                             {"bound", bound},
                             {"limit", limit},
                             {"value", value},
                             {"pages", pages_}});
}

void listing_walk::count(const json::value& result) {
    ++pages_;
    // Bytes first: a page is converted (and its items kept) only once it is known to fit.
    bytes_ += to_json(result).size();
    if (limits_.max_bytes && bytes_ > limits_.max_bytes)
        exceeded("max_bytes", limits_.max_bytes, bytes_,
                 "the server's " + std::to_string(pages_) + (pages_ == 1 ? " page holds " : " pages hold ") +
                     std::to_string(bytes_) + " bytes, more than the " + std::to_string(limits_.max_bytes) +
                     " client_options::listing.max_bytes allows");
    const auto* o = result.if_object();
    if (!o) return; // not a page: its conversion says what is wrong
    if (const auto* items = find_array(*o, items_key_)) {
        items_ += items->size();
        if (limits_.max_items && items_ > limits_.max_items)
            exceeded("max_items", limits_.max_items, items_,
                     "the server sent " + std::to_string(items_) + " items (in " + std::to_string(pages_) +
                         (pages_ == 1 ? " page" : " pages") + "), more than the " +
                         std::to_string(limits_.max_items) + " client_options::listing.max_items allows");
    }
    const auto cursor = find_string(*o, "nextCursor");
    if (!cursor) return; // the last page
    if (limits_.max_cursor_size && cursor->size() > limits_.max_cursor_size)
        exceeded("max_cursor_size", limits_.max_cursor_size, cursor->size(),
                 "the server sent a nextCursor of " + std::to_string(cursor->size()) +
                     " bytes, longer than the " + std::to_string(limits_.max_cursor_size) +
                     " client_options::listing.max_cursor_size allows");
    if (limits_.max_pages && pages_ >= limits_.max_pages)
        exceeded("max_pages", limits_.max_pages, pages_ + 1,
                 "the server still had more pages after " + std::to_string(pages_) + ", more than the " +
                     std::to_string(limits_.max_pages) + " client_options::listing.max_pages allows");
    if (!cursors_.emplace(*cursor).second)
        throw error(error_code::internal_error,
                    "server repeated a pagination cursor while listing " + std::string(what_) +
                        " (the walk would never end)");
}

} // namespace mcp::detail
