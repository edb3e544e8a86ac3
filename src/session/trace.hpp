// Message tracing: MCPXX_TRACE=1 (or session_options::trace) logs every message in and out.
#pragma once

#include <mcp/session/session.hpp>

namespace mcp::detail {

bool trace_enabled_by_environment() noexcept;
/// "mcpxx[name] +12.345ms <- {...}" on stderr, written with one call so lines do not interleave.
void trace_to_stderr(const std::string& name, const trace_event& ev);

} // namespace mcp::detail
