// Who may use `mcpxx gateway`, and the structured log it writes: bearer tokens (from a file or
// the environment), each with a principal name, an optional rate of its own and optional tool
// patterns; one JSON object per line on stderr.
#pragma once

#include <mcp/http/bearer.hpp>
#include <mcp/json/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpxx_cli {

/// What a token's principal may do beyond getting in.
struct gateway_token {
    std::string principal;      ///< "name" from the file, else "token-" + 8 hex of its SHA-256
    std::optional<double> rate; ///< requests per second of its own (0: unlimited)
    std::optional<double> burst;
    /// Glob patterns (`*`) of the tools and prompts it may see, by their gateway names
    /// (`server__name`); empty: all. Without `resources`, they also decide which servers'
    /// resources it sees (see gateway_command.cpp).
    std::vector<std::string> tools;
    /// Glob patterns of the resource URIs and resource templates it may see, by their gateway
    /// URIs (`mcpxx://server/...`); empty: as `tools` decides.
    std::vector<std::string> resources;
    bool operator==(const gateway_token&) const = default;
};

/// The accepted tokens (mcp::http::bearer_tokens) and their principals' settings.
class gateway_tokens {
public:
    /// Read `path`: JSON {"tokens": [{"token", "name"?, "rate"?, "burst"?, "tools"?: [...],
    /// "resources"?: [...]}]}
    /// or text, one token a line ("TOKEN" or "TOKEN NAME"; blank lines and # comments skipped).
    /// Several tokens may share a name (and then its settings). Throws input_error naming the
    /// file and the line or entry.
    void load_file(const std::string& path);
    /// Tokens separated by commas, spaces or newlines (the MCPXX_GATEWAY_TOKENS variable).
    void load_list(std::string_view list, std::string_view source);
    bool empty() const { return bearer_.empty(); }
    std::size_t size() const { return bearer_.size(); }
    const mcp::http::bearer_tokens& bearer() const { return bearer_; }
    /// Settings by principal.
    const std::map<std::string, gateway_token>& principals() const { return principals_; }

private:
    void add(const std::string& token, gateway_token t, const std::string& where);
    mcp::http::bearer_tokens bearer_;
    std::map<std::string, gateway_token> principals_;
};

/// Whether `name` matches the glob `pattern` (`*` = any run of characters).
bool glob_match(std::string_view pattern, std::string_view name);
/// Whether `pattern` matches some name that starts with `prefix` ("weather__*", "weather__now"
/// and "*" do for "weather__"; "news__*" does not).
bool glob_admits_prefix(std::string_view pattern, std::string_view prefix);

/// Structured logs: one JSON object per line on stderr, with "time" (UTC, ms) and "level"
/// first. Each line is one write(2), so lines of several threads never interleave.
void log_json(std::string_view level, mcp::json::object fields);

} // namespace mcpxx_cli
