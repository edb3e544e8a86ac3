// The filesystem server's tools: read_file, write_file, list_directory, search_files and
// list_allowed_directories. Every path goes through the access policy; a refused or failed
// operation is a tool result with isError: true whose text says what to do instead.
#pragma once

#include "access_policy.hpp"

#include <mcp/server/server.hpp>

#include <cstddef>
#include <cstdint>

namespace mcp::files {

struct tool_limits {
    std::uint64_t max_read_bytes = 1u << 20; ///< read_file (and each file of a content search)
    std::size_t max_search_entries = 100000; ///< entries search_files looks at before giving up
};

void add_file_tools(server& s, access_policy& policy, tool_limits limits);

} // namespace mcp::files
