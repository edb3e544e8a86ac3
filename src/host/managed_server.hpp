// One server the manager keeps: its connection, what it listed, and the supervisor thread that
// starts it, lists again on list_changed and restarts it with backoff when it dies.
#pragma once

#include <mcp/host/manager.hpp>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace mcp::host::detail {

/// What every server of one manager shares.
struct host_shared {
    manager_options options;
    mutable std::mutex roots_mu;
    std::vector<root> roots;

    std::vector<root> current_roots() const {
        std::lock_guard lock(roots_mu);
        return roots;
    }
};

class managed_server : public std::enable_shared_from_this<managed_server> {
public:
    managed_server(server_config config, std::shared_ptr<host_shared> shared);
    ~managed_server();

    /// Start the supervisor unless it is running (a failed server is tried again).
    void start();
    /// Wait until ready or failed (or stopped); true when ready.
    bool wait_settled(std::chrono::milliseconds timeout);
    /// Wait until ready; false on timeout, failure or stop.
    bool wait_ready(std::chrono::milliseconds timeout);
    void stop();

    const server_config& config() const noexcept { return config_; }
    server_status status() const;
    /// The client when ready; else throws mcp::error(connection_closed) saying why not.
    std::shared_ptr<mcp::client> ready_client() const;
    std::vector<mcp::tool> tools() const; ///< after includeTools / excludeTools
    std::optional<mcp::tool> listed_tool(const std::string& name) const;
    bool tool_allowed(const std::string& name) const;
    std::vector<resource> resources() const;
    std::vector<resource_template> resource_templates() const;
    std::vector<prompt> prompts() const;
    /// Tell the server its roots changed (if connected).
    void roots_changed();

private:
    /// ev_renewed: the client started a new session (the server forgot the old one): list
    /// everything again.
    enum event : unsigned { ev_tools = 1, ev_resources = 2, ev_prompts = 4, ev_renewed = 8 };
    void supervise();
    bool connect_once(std::string& error, bool restart);
    void refresh(unsigned events);
    void signal(int generation, unsigned events);
    void signal_closed(int generation);
    void catalogue_changed();
    std::string death_message() const;
    void set_phase(std::string phase);

    const server_config config_;
    const std::shared_ptr<host_shared> shared_;

    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::thread supervisor_;
    bool running_ = false;
    bool stop_ = false;
    bool closed_ = false;
    unsigned pending_ = 0;
    int generation_ = 0;

    server_state state_ = server_state::starting;
    std::string error_;
    /// While connecting: what the attempt is doing and since when it began (status() says so).
    std::string phase_;
    std::chrono::steady_clock::time_point attempt_began_{};
    int restarts_ = 0;
    /// The initialize-era revision the server spoke last time (see connect_once).
    std::optional<revision> remembered_revision_;
    std::shared_ptr<mcp::client> client_;
    transport_ptr transport_;
    /// The connection connect_once is setting up (not yet client_/transport_): stop() closes
    /// it, so that a server that never finishes starting does not hold stop() for its timeout.
    transport_ptr connecting_;
    std::vector<mcp::tool> tools_;
    std::vector<resource> resources_;
    std::vector<resource_template> templates_;
    std::vector<prompt> prompts_;
};

} // namespace mcp::host::detail
