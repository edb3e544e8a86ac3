// http/core/request.hpp - one HTTP request as the server hands it to the layer above.
//
// Plain data with no Boost type in it: the Streamable HTTP transport (and its tests) see only
// this, never the parser. Header names keep the case they arrived in; lookups ignore case.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::http::core {

/// Header fields in the order they were received (or are to be sent). Repeated fields stay
/// separate entries.
using header_list = std::vector<std::pair<std::string, std::string>>;

struct request {
    std::string method; ///< as received, e.g. "POST" (methods are case-sensitive)
    std::string target; ///< the request-target, e.g. "/mcp?x=1"
    header_list headers;
    std::string body;           ///< complete, de-chunked
    std::string remote_address; ///< the peer's IP address, e.g. "127.0.0.1" or "::1"
    unsigned short remote_port = 0;
    int version = 11; ///< 10 for HTTP/1.0, 11 for HTTP/1.1

    /// Value of the first field named `name` (ASCII case-insensitive), or nullopt. The view
    /// points into this request. Where a repeated field matters, see header_count() and
    /// combined_header().
    std::optional<std::string_view> header(std::string_view name) const;

    /// How many field lines are named `name` (ASCII case-insensitive).
    std::size_t header_count(std::string_view name) const noexcept;

    /// The values of every field line named `name` joined with ", ", in the order received: the
    /// one value a recipient may combine them into (RFC 9110 5.3). nullopt when there is none.
    std::optional<std::string> combined_header(std::string_view name) const;
};

/// ASCII case-insensitive equality (header names, tokens such as "close" or "chunked").
bool iequals(std::string_view a, std::string_view b) noexcept;

} // namespace mcp::http::core
