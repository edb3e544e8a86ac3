#include "catalogue_output.hpp"
#include "host_output.hpp"

#include <mcp/json/text.hpp>

namespace mcpxx_cli {
namespace {

constexpr std::size_t transport_width = 6;

} // namespace

void print_tools(std::ostream& out, const std::vector<mcp::host::tool_entry>& tools, const style& st) {
    std::vector<std::string> names;
    std::size_t w = 0;
    for (const auto& t : tools) {
        names.push_back(mcp::printable(t.name));
        w = std::max(w, names.back().size() + 2);
    }
    for (std::size_t i = 0; i < tools.size(); ++i) {
        const auto& t = tools[i];
        std::string flags;
        if (t.tool.annotations && t.tool.annotations->read_only_hint.value_or(false)) flags = " [read-only]";
        out << st.bold(pad(names[i], w)) << mcp::printable_lines(t.tool.description.value_or(""))
            << st.dim(flags) << "\n";
    }
}

void print_resources(std::ostream& out, const mcp::host::manager& m, const std::string& server,
                     const style& st) {
    for (const auto& r : m.resources(server))
        out << st.bold(server) << "  " << mcp::printable(r.uri) << "  " << mcp::printable(r.name)
            << st.dim(r.mime_type ? "  " + mcp::printable(*r.mime_type) : "") << "\n";
    for (const auto& t : m.resource_templates(server))
        out << st.bold(server) << "  " << mcp::printable(t.uri_template) << "  " << mcp::printable(t.name)
            << st.dim("  (template)") << "\n";
}

void print_prompts(std::ostream& out, const mcp::host::manager& m, const std::string& server,
                   const style& st) {
    for (const auto& p : m.prompts(server)) {
        std::string args;
        for (const auto& a : p.arguments)
            args +=
                (args.empty() ? "" : ", ") + mcp::printable(a.name) + (a.required.value_or(false) ? "*" : "");
        out << st.bold(server) << "  " << mcp::printable(p.name) << (args.empty() ? "" : "(" + args + ")")
            << "  " << mcp::printable_lines(p.description.value_or("")) << "\n";
    }
}

std::string catalogue_counts(std::size_t tools, std::size_t resources, std::size_t templates,
                             std::size_t prompts) {
    return counted(tools, "tool") + ", " + counted(resources, "resource") + ", " +
           counted(templates, "template") + ", " + counted(prompts, "prompt");
}

std::string server_line(const mcp::host::server_status& s, const server_columns& c, const style& st) {
    std::string line = st.bold(pad(mcp::printable(s.name), c.name));
    if (s.state == mcp::host::server_state::ready) {
        line += st.green(pad("ready", c.state)) + pad(std::string(to_string(s.transport)), transport_width) +
                pad(s.protocol_version ? std::string(mcp::to_string(*s.protocol_version)) : "?", 12) +
                catalogue_counts(s.tools, s.resources, s.resource_templates, s.prompts);
        if (s.server_info)
            line += "  " + st.dim(mcp::printable(s.server_info->name + " " + s.server_info->version));
    } else {
        line += st.red(pad(std::string(to_string(s.state)), c.state)) +
                pad(std::string(to_string(s.transport)), transport_width) + mcp::printable(s.error);
    }
    return line + "  " + st.dim(s.source);
}

std::string invalid_entry_line(const mcp::host::config_error& e, const server_columns& c, const style& st) {
    return st.bold(pad(mcp::printable(e.server), c.name)) + st.red(pad("invalid", c.state)) +
           mcp::printable(e.message) + "  " + st.dim(e.source);
}

std::string disabled_entry_line(const mcp::host::server_config& s, const server_columns& c, const style& st) {
    return st.bold(pad(mcp::printable(s.name), c.name)) + st.dim(pad("disabled", c.state)) +
           pad(std::string(to_string(s.transport)), transport_width) + "  " + st.dim(s.source);
}

std::string not_allowed_entry_line(const mcp::host::server_config& s, const server_columns& c,
                                   const style& st) {
    return st.bold(pad(mcp::printable(s.name), c.name)) + st.yellow(pad("not allowed", c.state)) +
           pad(std::string(to_string(s.transport)), transport_width) +
           "run \"mcpxx allow\" to review and allow this project file" + "  " + st.dim(s.source);
}

} // namespace mcpxx_cli
