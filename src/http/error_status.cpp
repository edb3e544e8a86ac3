// HTTP statuses and headers for JSON-RPC errors (see streamable_host.hpp): the stateless era maps
// request problems to 400/404, and mcpxx's access errors (middleware refusals) get 429/401/403
// with Retry-After or WWW-Authenticate in every era.
#include "http/streamable_host.hpp"

#include <mcp/jsonrpc/error.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>

namespace mcp::http::detail {
std::optional<int> access_error_code(std::string_view message) noexcept {
    // {"jsonrpc":"2.0","id":..,"error":{"code":N,...}: mcpxx writes "error" before the rest.
    static constexpr std::string_view key = "\"error\":{\"code\":";
    const auto at = message.find(key);
    if (at == std::string_view::npos || at > 96) return std::nullopt;
    const char* first = message.data() + at + key.size();
    const char* last = message.data() + message.size();
    int code = 0;
    const auto [end, ec] = std::from_chars(first, last, code);
    if (ec != std::errc() || end == last || (*end != ',' && *end != '}')) return std::nullopt;
    switch (code) {
    case error_code::rate_limited:
    case error_code::unauthorized:
    case error_code::forbidden:
        return code;
    default:
        return std::nullopt;
    }
}

void add_access_error_headers(int code, std::string_view message,
                              std::vector<std::pair<std::string, std::string>>& headers) {
    if (code == error_code::unauthorized) headers.emplace_back("WWW-Authenticate", "Bearer");
    if (code != error_code::rate_limited) return;
    // data.retryAfterMs -> whole seconds, rounded up (Retry-After has no fractions).
    std::int64_t ms = 1000;
    if (const auto at = message.find("\"retryAfterMs\":"); at != std::string_view::npos) {
        const auto* p = message.data() + at + 15;
        std::from_chars(p, message.data() + message.size(), ms);
    }
    headers.emplace_back("Retry-After", std::to_string(std::max<std::int64_t>(1, (ms + 999) / 1000)));
}

int http_status_of(int code) noexcept {
    switch (code) {
    case error_code::parse_error:
    case error_code::invalid_request:
    case error_code::invalid_params:
    case error_code::header_mismatch:
    case error_code::missing_required_client_capability:
    case error_code::unsupported_protocol_version:
        return 400;
    case error_code::method_not_found:
        return 404;
    case error_code::rate_limited:
        return 429;
    case error_code::unauthorized:
        return 401;
    case error_code::forbidden:
        return 403;
    default:
        return 200;
    }
}
} // namespace mcp::http::detail
