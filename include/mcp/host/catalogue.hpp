// mcp/host/catalogue.hpp - one list of tools from many servers, under names model APIs accept.
//
// Model APIs want tool names of [A-Za-z0-9_-], at most 64 characters (OpenAI, Anthropic and
// Gemini agree on that much), and two servers may well both have a `search` tool. A tool is
// therefore named `server__tool`, every other character becomes `_`, a name too long is cut and
// ends in a hash of the original pair, and a name already taken (two pairs that sanitise to the
// same string) gets `_2`, `_3`, ...
//
// A name, once given, stays: a client (or a model's conversation) holds on to it, and it must
// never come to mean another server's tool. catalogue_names remembers every name it gave, so
// that while one server of a clashing pair restarts its name is not passed to the other. Pairs
// named at the same time are named in sorted order (servers that connect together get the same
// names whatever order they happened to answer in); a pair seen later takes the first name still
// free.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::host {

inline constexpr std::size_t max_tool_name_length = 64;

/// `s` with every character outside [A-Za-z0-9_-] replaced by `_` ("_" for an empty string).
std::string sanitize_name(std::string_view s);

/// The names given to (server, item) pairs, remembered: a pair keeps its name for the life of
/// this object, and a name is never given to another pair (not even after its pair went away).
/// What a host holds for each list it offers (the manager for tools, a gateway for prompts).
/// Every pair ever named is kept: a server that lists ever new names makes it grow. Thread-safe.
class catalogue_names {
public:
    using pair = std::pair<std::string, std::string>;

    /// The names of `pairs`, in the order given: each pair's earlier name, else a new one
    /// (unique, sanitised, at most 64 characters); new pairs are named in sorted order.
    std::vector<std::string> assign(const std::vector<pair>& pairs);
    /// The name `server`'s `item` was given, if it was.
    std::optional<std::string> name_of(const std::string& server, const std::string& item) const;
    /// The pair `name` was given to, if any.
    std::optional<pair> owner(const std::string& name) const;

private:
    mutable std::mutex mu_;
    std::map<pair, std::string> by_pair_;
    std::map<std::string, pair, std::less<>> by_name_;
};

/// Qualified names for (server, tool) pairs, in the order given, all named at once (a new
/// catalogue_names). Unique, sanitised, <= 64 chars.
std::vector<std::string>
qualify_tool_names(const std::vector<std::pair<std::string, std::string>>& server_tool);

} // namespace mcp::host
