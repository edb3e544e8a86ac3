// mcp::host::manager: many servers, one catalogue, approval and audit around every call.
#include <mcp/host/catalogue.hpp>
#include <mcp/host/manager.hpp>

#include "host/managed_server.hpp"

#include <future>
#include <stdexcept>

namespace mcp::host {

std::string_view to_string(server_state s) noexcept {
    switch (s) {
    case server_state::starting:
        return "starting";
    case server_state::ready:
        return "ready";
    case server_state::restarting:
        return "restarting";
    case server_state::failed:
        return "failed";
    case server_state::stopped:
        return "stopped";
    }
    return "?";
}

std::string not_ready_reason(std::string_view name, server_state state, std::string_view error) {
    const std::string server = "server \"" + std::string(name) + "\"";
    const std::string why(error);
    switch (state) {
    case server_state::starting:
        return server + " is still starting";
    case server_state::ready:
        return server + " is ready";
    case server_state::restarting:
        return server + " is restarting" + (why.empty() ? "" : " (last error: " + why + ")");
    case server_state::failed:
        return server + " failed" + (why.empty() ? "" : ": " + why);
    case server_state::stopped:
        return server + " has been stopped" + (why.empty() ? "" : " (" + why + ")");
    }
    return server + " is not ready";
}

std::string file_uri(const std::filesystem::path& p) {
    static const char* hex = "0123456789ABCDEF";
    std::string out = "file://";
    for (unsigned char c : p.generic_string()) {
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (unreserved)
            out.push_back(static_cast<char>(c));
        else
            out += {'%', hex[c >> 4], hex[c & 15]};
    }
    return out;
}

namespace {

std::vector<root> to_roots(const std::vector<std::filesystem::path>& paths) {
    std::vector<root> out;
    for (const auto& p : paths) {
        std::error_code ec;
        auto abs = std::filesystem::weakly_canonical(std::filesystem::absolute(p, ec), ec);
        if (ec) abs = std::filesystem::absolute(p);
        auto name = abs.filename().string();
        out.push_back({.uri = file_uri(abs), .name = name.empty() ? std::optional<std::string>() : name});
    }
    return out;
}

} // namespace

struct manager::impl {
    std::shared_ptr<detail::host_shared> shared;
    mutable std::mutex mu;
    std::vector<std::shared_ptr<detail::managed_server>> servers; // in the order added
    /// Every tool name given, kept for the manager's lifetime (see catalogue.hpp).
    catalogue_names tool_names;

    std::shared_ptr<detail::managed_server> find(const std::string& name) const {
        std::lock_guard lock(mu);
        for (const auto& s : servers)
            if (s->config().name == name) return s;
        return nullptr;
    }
    std::shared_ptr<detail::managed_server> get(const std::string& name) const {
        if (auto s = find(name)) return s;
        throw error(error_code::invalid_params, "no server named \"" + name + "\"");
    }
    std::vector<std::shared_ptr<detail::managed_server>> all() const {
        std::lock_guard lock(mu);
        return servers;
    }
    /// The catalogue name of a server's tool ("" when it is not listed).
    std::string qualified_name(const manager& m, const std::string& server, const std::string& tool) const {
        if (auto name = tool_names.name_of(server, tool)) return *name;
        m.tools(); // names what is listed now
        return tool_names.name_of(server, tool).value_or("");
    }
};

manager::manager(manager_options options) : impl_(std::make_shared<impl>()) {
    impl_->shared = std::make_shared<detail::host_shared>();
    impl_->shared->roots = to_roots(options.roots);
    impl_->shared->options = std::move(options);
}

manager::~manager() {
    close();
}

void manager::add_server(server_config config) {
    std::lock_guard lock(impl_->mu);
    for (const auto& s : impl_->servers)
        if (s->config().name == config.name)
            throw std::invalid_argument("duplicate server name \"" + config.name + "\"");
    impl_->servers.push_back(std::make_shared<detail::managed_server>(std::move(config), impl_->shared));
}

namespace {
/// How long a server may take to settle: its connect (the entry's timeout, else the manager's):
/// the server/discover probe (at most half of it, see managed_server::connect_once) and
/// initialize; and the time to stop a process that did not answer (stdin closed, SIGTERM, each
/// after a grace period).
std::chrono::milliseconds settle_time(const server_config& c, const manager_options& o) {
    const auto connect = c.timeout.value_or(o.connect_timeout);
    return connect + connect / 2 + std::chrono::seconds(6);
}
} // namespace

void manager::connect_all() {
    auto servers = impl_->all();
    const auto start = std::chrono::steady_clock::now();
    for (auto& s : servers) s->start(); // each starts on its own thread: all at once
    for (auto& s : servers) {
        const auto deadline = start + settle_time(s->config(), impl_->shared->options);
        s->wait_settled(std::chrono::duration_cast<std::chrono::milliseconds>(std::max(
            deadline - std::chrono::steady_clock::now(), std::chrono::steady_clock::duration::zero())));
    }
}

bool manager::connect(const std::string& name) {
    auto s = impl_->get(name);
    s->start();
    return s->wait_settled(settle_time(s->config(), impl_->shared->options));
}

bool manager::wait_ready(const std::string& name, std::chrono::milliseconds timeout) {
    return impl_->get(name)->wait_ready(timeout);
}

std::vector<server_status> manager::servers() const {
    std::vector<server_status> out;
    for (const auto& s : impl_->all()) out.push_back(s->status());
    return out;
}

server_status manager::status(const std::string& name) const {
    auto s = impl_->find(name);
    if (!s) throw std::out_of_range("no server named \"" + name + "\"");
    return s->status();
}

const server_config& manager::config(const std::string& name) const {
    auto s = impl_->find(name);
    if (!s) throw std::out_of_range("no server named \"" + name + "\"");
    return s->config(); // the server object lives as long as the manager
}

std::vector<tool_entry> manager::tools() const {
    std::vector<tool_entry> out;
    std::vector<std::pair<std::string, std::string>> pairs;
    const auto& trusted = impl_->shared->options.approval.trusted_servers;
    for (const auto& s : impl_->all()) {
        const bool is_trusted = s->config().trusted || trusted.count(s->config().name) > 0;
        for (auto& t : s->tools()) {
            pairs.emplace_back(s->config().name, t.name);
            out.push_back({.server = s->config().name, .tool = std::move(t), .server_trusted = is_trusted});
        }
    }
    auto names = impl_->tool_names.assign(pairs);
    for (std::size_t i = 0; i < out.size(); ++i) out[i].name = std::move(names[i]);
    return out;
}

std::optional<tool_entry> manager::find_tool(const std::string& qualified_name) const {
    for (auto& t : tools())
        if (t.name == qualified_name) return std::move(t);
    return std::nullopt;
}

std::optional<std::pair<std::string, std::string>>
manager::tool_name_owner(const std::string& qualified_name) const {
    return impl_->tool_names.owner(qualified_name);
}

std::vector<resource> manager::resources(const std::string& server) const {
    return impl_->get(server)->resources();
}
std::vector<resource_template> manager::resource_templates(const std::string& server) const {
    return impl_->get(server)->resource_templates();
}
std::vector<prompt> manager::prompts(const std::string& server) const {
    return impl_->get(server)->prompts();
}

std::optional<approval_request> manager::approval_needed(const std::string& server, const std::string& tool,
                                                         const json::object& arguments) const {
    const auto& o = impl_->shared->options;
    if (o.approval.approve_all) return std::nullopt;
    auto s = impl_->get(server);
    if (!s->tool_allowed(tool)) return std::nullopt;
    approval_request request{.server = server,
                             .tool = tool,
                             .arguments = arguments,
                             .definition = s->listed_tool(tool),
                             .server_trusted = s->config().trusted};
    if (policy_decision(o.approval, request)) return std::nullopt;
    request.qualified_name = impl_->qualified_name(*this, server, tool);
    return request;
}

std::shared_ptr<mcp::client> manager::client(const std::string& server) const {
    return impl_->get(server)->ready_client();
}

call_tool_result manager::call_tool(const std::string& qualified_name, json::object arguments,
                                    tool_call_options options) {
    auto entry = find_tool(qualified_name);
    if (!entry) {
        // A name given before, whose server is not ready now (restarting, say): say that, rather
        // than "no such tool" (the name comes back with the server, and no other tool takes it).
        if (auto owner = tool_name_owner(qualified_name))
            if (auto s = impl_->find(owner->first))
                if (const auto st = s->status(); st.state != server_state::ready)
                    throw error(error_code::connection_closed,
                                "tool \"" + qualified_name +
                                    "\" is not available: " + not_ready_reason(st.name, st.state, st.error));
        throw error(error_code::invalid_params, "no tool named \"" + qualified_name + "\" in the catalogue");
    }
    return call_tool(entry->server, entry->tool.name, std::move(arguments), std::move(options));
}

call_tool_result manager::call_tool(const std::string& server, const std::string& tool,
                                    json::object arguments, tool_call_options options) {
    const auto& o = impl_->shared->options;
    auto s = impl_->get(server);
    if (!s->tool_allowed(tool))
        throw error(error_code::invalid_params,
                    "tool \"" + tool + "\" of server \"" + server + "\" is excluded by its config");
    auto c = s->ready_client();

    audit_record record{.time = std::chrono::system_clock::now(), .server = server, .tool = tool};
    record.principal = std::move(options.principal);
    if (o.audit) record.arguments = arguments;
    const auto audit = [&](std::string outcome, std::string message) {
        if (!o.audit) return;
        record.outcome = std::move(outcome);
        record.error = std::move(message);
        o.audit->append(record);
    };

    // The request (a copy of the arguments and of the tool's definition) is only built when
    // the policy needs to look: a gateway that approves everything pays nothing for it.
    std::optional<approval_kind> decision;
    if (options.user_decision) {
        decision = *options.user_decision ? approval_kind::user : approval_kind::denied;
    } else if (o.approval.approve_all) {
        decision = approval_kind::not_needed_all;
    } else {
        approval_request request{.server = server,
                                 .tool = tool,
                                 .arguments = arguments,
                                 .definition = s->listed_tool(tool),
                                 .server_trusted = s->config().trusted};
        decision = policy_decision(o.approval, request);
        if (!decision) {
            request.qualified_name = impl_->qualified_name(*this, server, tool);
            bool yes = false;
            try {
                yes = o.approver && o.approver->approve(request);
            } catch (const call_denied& e) {
                record.approval = std::string(to_string(approval_kind::denied));
                audit("denied", e.what());
                throw call_denied("tool \"" + tool + "\" of server \"" + server + "\": " + e.what());
            } catch (const std::exception& e) {
                record.approval = std::string(to_string(approval_kind::denied));
                audit("denied", e.what());
                throw;
            }
            decision = yes ? approval_kind::user : approval_kind::denied;
        }
    }
    record.approval = std::string(to_string(*decision));
    if (*decision == approval_kind::denied) {
        std::string why = "the call needs approval and there is no approver";
        if (options.user_decision || o.approver)
            why = options.denial_reason.empty() ? "the user denied the call" : options.denial_reason;
        audit("denied", why);
        throw call_denied("tool \"" + tool + "\" of server \"" + server + "\": " + why);
    }

    call_options co;
    co.timeout = options.timeout       ? options.timeout
                 : s->config().timeout ? s->config().timeout
                                       : o.call_timeout;
    co.on_progress = std::move(options.on_progress);
    co.cancel = options.cancel;
    co.meta = std::move(options.meta);
    const auto started = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                     started);
    };
    try {
        auto result = c->call_tool(tool, std::move(arguments), std::move(co));
        record.duration = elapsed();
        audit(result.is_error.value_or(false) ? "error" : "ok", "");
        return result;
    } catch (const error& e) {
        record.duration = elapsed();
        const char* outcome = e.code() == error_code::request_timeout     ? "timeout"
                              : e.code() == error_code::request_cancelled ? "cancelled"
                                                                          : "failed";
        audit(outcome, e.what());
        throw;
    }
}

void manager::set_roots(std::vector<std::filesystem::path> roots) {
    {
        std::lock_guard lock(impl_->shared->roots_mu);
        impl_->shared->roots = to_roots(roots);
    }
    notify_roots_changed();
}

void manager::notify_roots_changed() {
    for (const auto& s : impl_->all()) s->roots_changed();
}

std::vector<root> manager::roots() const {
    return impl_->shared->current_roots();
}

void manager::close() {
    if (!impl_) return;
    auto servers = impl_->all();
    // Stopped in parallel: each stop may wait for a child's shutdown grace period.
    std::vector<std::future<void>> stopping;
    for (auto& s : servers) stopping.push_back(std::async(std::launch::async, [s] { s->stop(); }));
    for (auto& f : stopping) f.wait();
}

} // namespace mcp::host
