// The combined catalogue for a person: the listings of `mcpxx servers|tools|resources|prompts`,
// shared with the shell's builtins of the same names. What servers wrote in them is escaped (see
// terminal.hpp).
#pragma once

#include "terminal.hpp"

#include <mcp/host/manager.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace mcpxx_cli {

/// One line per tool: its catalogue name (padded to one column), description, [read-only].
void print_tools(std::ostream& out, const std::vector<mcp::host::tool_entry>& tools, const style& st);
/// The resources and templates of `server`: "server  uri  name  mime" / "(template)" lines.
void print_resources(std::ostream& out, const mcp::host::manager& m, const std::string& server,
                     const style& st);
/// The prompts of `server`: "server  name(arg*, arg)  description" (* marks a required argument).
void print_prompts(std::ostream& out, const mcp::host::manager& m, const std::string& server,
                   const style& st);
/// "19 tools, 1 resource, 2 templates, 0 prompts".
std::string catalogue_counts(std::size_t tools, std::size_t resources, std::size_t templates,
                             std::size_t prompts);
/// The widths of the first two columns of server_line and the entry lines: the name (every row's
/// name and two spaces) and the state ("starting", "disabled" with a space after; "not allowed"
/// when a row says it).
struct server_columns {
    std::size_t name = 4;
    std::size_t state = 9;
    static constexpr std::size_t state_with_not_allowed = 12;
};
/// A server as `mcpxx servers` shows it: name, state, transport, revision and counts (or the
/// error), source. No newline.
std::string server_line(const mcp::host::server_status& s, const server_columns& columns, const style& st);
/// An entry that was not started, in the columns of server_line: "invalid" (red) with the
/// entry's error, "disabled" (dim) with its transport, or "not allowed" (yellow) with its
/// transport and how to allow its project file. No newline.
std::string invalid_entry_line(const mcp::host::config_error& e, const server_columns& columns,
                               const style& st);
std::string disabled_entry_line(const mcp::host::server_config& s, const server_columns& columns,
                                const style& st);
std::string not_allowed_entry_line(const mcp::host::server_config& s, const server_columns& columns,
                                   const style& st);

} // namespace mcpxx_cli
