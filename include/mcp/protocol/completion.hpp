// mcp/protocol/completion.hpp - argument completion (completion/complete).
#pragma once

#include <mcp/protocol/codec.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mcp {

/// {type: "ref/prompt", name, title?}
struct prompt_reference {
    std::string name;
    std::optional<std::string> title; ///< 2025-06-18+
    bool operator==(const prompt_reference&) const = default;
};
/// {type: "ref/resource", uri} - a resource template (or resource) URI.
struct resource_template_reference {
    std::string uri;
    bool operator==(const resource_template_reference&) const = default;
};
using completion_reference = std::variant<prompt_reference, resource_template_reference>;

struct completion_argument {
    std::string name;
    std::string value;
    bool operator==(const completion_argument&) const = default;
};

/// Params of completion/complete.
struct complete_request {
    completion_reference ref;
    completion_argument argument;
    /// `context.arguments`: values of other arguments already resolved (2025-06-18+).
    std::optional<std::map<std::string, std::string>> context_arguments;
    std::optional<json::object> meta;
    bool operator==(const complete_request&) const = default;
};
json::object to_json(const complete_request& x, revision r);
template <> complete_request from_json<complete_request>(const json::value& v);

/// Result of completion/complete. At most 100 values are sent; when more are given, the first
/// 100 are sent with `hasMore: true` and `total` (if unset) set to the number given.
struct complete_result {
    std::vector<std::string> values;
    std::optional<std::int64_t> total;
    std::optional<bool> has_more;
    std::optional<json::object> meta;
    bool operator==(const complete_result&) const = default;
};
inline constexpr std::size_t max_completion_values = 100;
json::object to_json(const complete_result& x, revision r);
template <> complete_result from_json<complete_result>(const json::value& v);

} // namespace mcp
