// libFuzzer harness: arbitrary text as an MCP host config file (mcp::host::parse_config in
// include/mcp/host/config.hpp); a project's .mcp.json or .vscode/mcp.json comes with whatever
// repository was cloned. Byte 0 picks the format (each host's, or detection) and the scope; the
// rest is the file. It must never crash or hang: a bad file or entry is a config_error with a
// message, every server read has a name and its transport's essentials, and the environment is
// only read through the lookup given.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DMCPXX_BUILD_FUZZ=ON ...; run: build/fuzz/config_fuzz
#include <mcp/host/config.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

constexpr mcp::host::config_format formats[] = {
    mcp::host::config_format::detect,      mcp::host::config_format::claude_desktop,
    mcp::host::config_format::claude_code, mcp::host::config_format::claude_code_user,
    mcp::host::config_format::cursor,      mcp::host::config_format::vscode,
    mcp::host::config_format::windsurf,    mcp::host::config_format::gemini,
};

std::optional<std::string> environment(std::string_view name) {
    if (name == "HOME") return "/nonexistent/home";
    if (name == "TOKEN") return "secret";
    if (name == "EMPTY") return "";
    return std::nullopt;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    mcp::host::file_context file;
    file.source = "/nonexistent/project/.mcp.json";
    file.format = formats[data[0] % 8];
    file.scope = static_cast<mcp::host::config_scope>((data[0] >> 3) % 4);
    // Directories that do not exist: relative envFile paths read nothing.
    file.home = "/nonexistent/home";
    file.cwd = "/nonexistent/project";
    file.environment = environment;

    mcp::host::discovery_result out;
    mcp::host::parse_config(text, file, out);
    for (const auto* list : {&out.servers, &out.disabled})
        for (const auto& s : *list) {
            check(!s.name.empty() && s.source.rfind(file.source, 0) == 0);
            if (s.disabled) continue;
            if (s.transport == mcp::host::transport_kind::stdio) check(!s.command.empty());
            if (s.timeout) check(s.timeout->count() >= 0);
        }
    for (const auto& e : out.errors) check(!e.message.empty() && !e.to_string().empty());
    return 0;
}
