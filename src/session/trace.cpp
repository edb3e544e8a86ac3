#include "session/trace.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace mcp::detail {

bool trace_enabled_by_environment() noexcept {
    const char* v = std::getenv("MCPXX_TRACE");
    return v && *v && std::strcmp(v, "0") != 0 && std::strcmp(v, "false") != 0;
}

void trace_to_stderr(const std::string& name, const trace_event& ev) {
    char stamp[48];
    std::snprintf(stamp, sizeof stamp, " +%.3fms %s ", static_cast<double>(ev.since_start.count()) / 1000.0,
                  ev.dir == trace_event::direction::in ? "<-" : "->");
    std::string line = "mcpxx";
    if (!name.empty()) line += "[" + name + "]";
    line += stamp;
    line.append(ev.message.data(), ev.message.size());
    line.push_back('\n');
    std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace mcp::detail
