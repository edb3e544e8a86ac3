// One managed server: start, list, list again on list_changed, restart with backoff.
#include "host/managed_server.hpp"
#include "host/watched_transport.hpp"

#include <mcp/host/transport_factory.hpp>
#include <mcp/http/client_transport.hpp>
#include <mcp/transport/child_process.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>

namespace mcp::host::detail {
namespace {

using clock = std::chrono::steady_clock;

/// The child process under a stdio server's watch, or null.
std::shared_ptr<child_process_transport> child_of(const transport_ptr& t) {
    if (auto w = std::dynamic_pointer_cast<watched_transport>(t))
        return std::dynamic_pointer_cast<child_process_transport>(w->inner());
    return std::dynamic_pointer_cast<child_process_transport>(t);
}

/// What a server wrote on stdout that is not JSON-RPC (a banner, a log line), as an error
/// message shows it: "; on stdout it wrote ..." or "".
std::string stray_summary(const transport_ptr& t) {
    auto w = std::dynamic_pointer_cast<watched_transport>(t);
    const auto stray = w ? w->first_stray_output() : std::string();
    if (stray.empty()) return {};
    return "; it wrote to stdout what is not JSON-RPC: \"" + stray + "\"";
}

/// "3 s", "0.5 s", "1.25 s".
std::string seconds_text(std::chrono::milliseconds d) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", static_cast<double>(d.count()) / 1000.0);
    return buf;
}

/// Closes a connection that is still being set up at its deadline (the server never answered),
/// so that connect() and the listings fail then instead of waiting for each request's own
/// timeout in turn.
class connect_deadline {
public:
    connect_deadline(std::chrono::milliseconds limit, transport_ptr t) {
        thread_ = std::thread([this, limit, t = std::move(t)] {
            std::unique_lock lock(mu_);
            if (cv_.wait_for(lock, limit, [&] { return done_; })) return;
            fired_ = true;
            lock.unlock();
            t->close(); // the request in flight fails (connection closed)
        });
    }
    ~connect_deadline() { disarm(); }
    connect_deadline(const connect_deadline&) = delete;
    connect_deadline& operator=(const connect_deadline&) = delete;
    /// Stop watching (the connection is set up, or failed by itself); waits for a close in
    /// progress. Returns whether the deadline passed.
    bool disarm() {
        {
            std::lock_guard lock(mu_);
            done_ = true;
        }
        cv_.notify_all();
        if (thread_.joinable()) thread_.join();
        std::lock_guard lock(mu_);
        return fired_;
    }

private:
    std::mutex mu_;
    std::condition_variable cv_;
    bool done_ = false, fired_ = false;
    std::thread thread_;
};

/// The last few lines a child wrote to stderr: usually the reason it failed. Only asked about a
/// server that failed or died, so the transport is closed first: close() returns once every
/// line the child wrote has been read (the session may have seen stdout's end before that).
std::string stderr_summary(const transport_ptr& t) {
    auto child = child_of(t);
    if (!child) return {};
    child->close();
    std::string tail = child->stderr_tail();
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
    if (tail.empty()) return {};
    std::size_t pos = tail.size();
    for (int lines = 0; lines < 3 && pos != std::string::npos && pos > 0; ++lines)
        pos = tail.rfind('\n', pos - 1);
    if (pos != std::string::npos) tail = tail.substr(pos + 1);
    if (tail.size() > 600) tail = "..." + tail.substr(tail.size() - 600);
    return tail;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

/// How long to wait before attempt `attempt` (0 for the first after a failure) under `policy`:
/// doubling from initial_delay up to max_delay, less a random share of up to policy.jitter.
std::chrono::milliseconds backoff(const restart_policy& policy, int attempt) {
    auto delay = policy.initial_delay * (1LL << std::min(attempt, 20));
    delay = std::min<std::chrono::milliseconds>(delay, policy.max_delay);
    const double jitter = std::clamp(policy.jitter, 0.0, 1.0);
    if (jitter <= 0 || delay.count() <= 0) return delay;
    thread_local std::minstd_rand random(std::random_device{}());
    std::uniform_real_distribution<double> share(0.0, jitter);
    return std::chrono::milliseconds(
        static_cast<std::int64_t>(static_cast<double>(delay.count()) * (1.0 - share(random))));
}

/// What a provider gets with a server's request (request_control): its cancellation, and its
/// progress while the handler runs. A report that comes after the handler returned is dropped:
/// the request is over, and its request_context gone.
class control_of_request {
public:
    explicit control_of_request(request_context& request) : live_(std::make_shared<live>()) {
        live_->request = &request;
        control_.cancellation = request.cancellation();
        if (request.wants_progress())
            control_.report_progress = [live = live_](const progress_update& p) {
                std::lock_guard lock(live->mu);
                if (live->request) live->request->report_progress(p.progress, p.total, p.message);
            };
    }
    ~control_of_request() {
        std::lock_guard lock(live_->mu);
        live_->request = nullptr;
    }
    control_of_request(const control_of_request&) = delete;
    control_of_request& operator=(const control_of_request&) = delete;
    const request_control& get() const noexcept { return control_; }

private:
    struct live {
        std::mutex mu;
        request_context* request = nullptr;
    };
    std::shared_ptr<live> live_;
    request_control control_;
};

/// The HTTP client transport under a remote server's watch, or null.
std::shared_ptr<http::client_transport> http_of(const transport_ptr& t) {
    auto w = std::dynamic_pointer_cast<watched_transport>(t);
    return w ? std::dynamic_pointer_cast<http::client_transport>(w->inner()) : nullptr;
}

} // namespace

managed_server::managed_server(server_config config, std::shared_ptr<host_shared> shared)
    : config_(std::move(config)), shared_(std::move(shared)) {}

managed_server::~managed_server() {
    stop();
}

void managed_server::start() {
    std::unique_lock lock(mu_);
    if (running_) return;
    // A supervisor that gave up has returned; collect it before starting another.
    std::thread old = std::move(supervisor_);
    lock.unlock();
    if (old.joinable()) old.join();
    lock.lock();
    if (running_) return;
    running_ = true;
    stop_ = false;
    state_ = server_state::starting;
    error_.clear();
    supervisor_ = std::thread([self = shared_from_this()] { self->supervise(); });
}

bool managed_server::wait_settled(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [&] { return state_ != server_state::starting; });
    return state_ == server_state::ready;
}

bool managed_server::wait_ready(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [&] {
        return state_ == server_state::ready || state_ == server_state::failed ||
               state_ == server_state::stopped;
    });
    return state_ == server_state::ready;
}

void managed_server::stop() {
    std::shared_ptr<mcp::client> c;
    transport_ptr connecting;
    std::thread t;
    {
        std::lock_guard lock(mu_);
        stop_ = true;
        c = std::move(client_);
        connecting = connecting_;
        t = std::move(supervisor_);
        if (state_ != server_state::failed) state_ = server_state::stopped;
        cv_.notify_all();
    }
    if (c) c->close(); // ends the child (stdin EOF, SIGTERM, SIGKILL) before the thread is joined
    // A server still starting: its connect (or listing) fails at once instead of at its timeout.
    if (connecting) connecting->close();
    if (t.joinable()) {
        if (t.get_id() == std::this_thread::get_id())
            t.detach(); // stop() from one of our callbacks
        else
            t.join();
    }
}

server_status managed_server::status() const {
    std::lock_guard lock(mu_);
    server_status s;
    s.name = config_.name;
    s.source = config_.source;
    s.transport = config_.transport;
    s.state = state_;
    s.error = error_;
    if ((state_ == server_state::starting || state_ == server_state::restarting) && !phase_.empty()) {
        // Not up yet: say what it is waiting for, and for how long.
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - attempt_began_);
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.1f", static_cast<double>(ms.count()) / 1000.0);
        std::string now = "still " + phase_ + " after " + secs + " s";
        s.error = s.error.empty() ? now : s.error + "; " + now;
    }
    s.restarts = restarts_;
    if (client_ && state_ == server_state::ready) {
        s.protocol_version = client_->protocol_version();
        s.server_info = client_->server().server_info;
        s.tools = 0;
        for (const auto& t : tools_)
            if (tool_allowed(t.name)) ++s.tools;
        s.resources = resources_.size();
        s.resource_templates = templates_.size();
        s.prompts = prompts_.size();
        if (auto child = child_of(transport_)) s.pid = child->pid();
        // What the server turned out to speak: an entry without a type may have fallen back.
        if (auto h = http_of(transport_); h && h->current_wire() == http::client_transport::wire::legacy_sse)
            s.transport = transport_kind::sse;
    }
    return s;
}

std::shared_ptr<mcp::client> managed_server::ready_client() const {
    std::lock_guard lock(mu_);
    if (state_ == server_state::ready && client_) return client_;
    throw error(error_code::connection_closed, not_ready_reason(config_.name, state_, error_));
}

bool managed_server::tool_allowed(const std::string& name) const {
    if (contains(config_.exclude_tools, name)) return false;
    return config_.include_tools.empty() || contains(config_.include_tools, name);
}

std::vector<mcp::tool> managed_server::tools() const {
    std::lock_guard lock(mu_);
    if (state_ != server_state::ready) return {};
    std::vector<mcp::tool> out;
    for (const auto& t : tools_)
        if (tool_allowed(t.name)) out.push_back(t);
    return out;
}

std::optional<mcp::tool> managed_server::listed_tool(const std::string& name) const {
    std::lock_guard lock(mu_);
    for (const auto& t : tools_)
        if (t.name == name) return t;
    return std::nullopt;
}

std::vector<resource> managed_server::resources() const {
    std::lock_guard lock(mu_);
    return state_ == server_state::ready ? resources_ : std::vector<resource>{};
}

std::vector<resource_template> managed_server::resource_templates() const {
    std::lock_guard lock(mu_);
    return state_ == server_state::ready ? templates_ : std::vector<resource_template>{};
}

std::vector<prompt> managed_server::prompts() const {
    std::lock_guard lock(mu_);
    return state_ == server_state::ready ? prompts_ : std::vector<prompt>{};
}

void managed_server::roots_changed() {
    std::shared_ptr<mcp::client> c;
    {
        std::lock_guard lock(mu_);
        if (state_ == server_state::ready) c = client_;
    }
    if (c) c->notify_roots_changed();
}

void managed_server::signal(int generation, unsigned events) {
    std::lock_guard lock(mu_);
    if (generation != generation_) return; // from a connection that is gone
    pending_ |= events;
    cv_.notify_all();
}

void managed_server::signal_closed(int generation) {
    std::lock_guard lock(mu_);
    if (generation != generation_) return;
    closed_ = true;
    cv_.notify_all();
}

void managed_server::set_phase(std::string phase) {
    std::lock_guard lock(mu_);
    if (phase_.empty() && !phase.empty()) attempt_began_ = clock::now();
    phase_ = std::move(phase);
}

void managed_server::catalogue_changed() {
    if (shared_->options.on_catalogue_changed) shared_->options.on_catalogue_changed(config_.name);
}

std::string managed_server::death_message() const {
    // A server that stopped reading what it was sent was cut off: its exit status (the
    // shutdown's signal) would only hide that.
    if (auto w = std::dynamic_pointer_cast<watched_transport>(transport_))
        if (auto why = w->failure(); !why.empty()) return "connection closed: " + why;
    if (auto w = std::dynamic_pointer_cast<watched_transport>(transport_); w && !child_of(transport_)) {
        const auto why = w->last_problem();
        return why.empty() ? "connection lost" : "connection lost: " + why;
    }
    std::string m = "server exited";
    if (auto child = child_of(transport_)) {
        if (auto st = child->exit_status())
            m += *st < 0 ? " (signal " + std::to_string(-*st) + ")" : " (status " + std::to_string(*st) + ")";
        if (auto tail = stderr_summary(transport_); !tail.empty()) m += ": " + tail;
        m += stray_summary(transport_);
    }
    return m;
}

bool managed_server::connect_once(std::string& error_out, bool restart) {
    if (auto problem = check_startable(config_)) {
        error_out = *problem;
        return false;
    }
    const auto& opts = shared_->options;
    // Start, initialize and list within the entry's own timeout, else the manager's.
    const auto limit = config_.timeout.value_or(opts.connect_timeout);
    transport_options to;
    to.inherit_stderr = opts.inherit_server_stderr;
    to.connect_timeout = limit;
    if (opts.authorizer && config_.transport != transport_kind::stdio) to.authorizer = opts.authorizer(config_);
    if (opts.on_server_stderr)
        to.on_stderr_line = [cb = opts.on_server_stderr, name = config_.name](std::string_view line) {
            cb(name, line);
        };
    transport_ptr t;
    int gen;
    {
        std::lock_guard lock(mu_);
        gen = ++generation_;
        closed_ = false;
        pending_ = 0;
    }
    const std::weak_ptr<managed_server> self = weak_from_this();
    set_phase(config_.transport == transport_kind::stdio ? "starting the process and connecting"
                                                         : "connecting");
    struct phase_done {
        managed_server* s;
        ~phase_done() { s->set_phase({}); }
    } clear_phase{this};
    try {
        t = make_transport(config_, to);
    } catch (const std::exception& e) {
        error_out = e.what();
        return false;
    }
    if (config_.transport != transport_kind::stdio) {
        // A request that nothing answered means the server is gone: reconnect, as a stdio
        // server that exited is restarted (watched_transport.hpp).
        t = std::make_shared<watched_transport>(std::move(t), [self, gen](const std::string&) {
            if (auto s = self.lock()) s->signal_closed(gen);
        });
    } else {
        // Watched for what it writes to stdout that is not JSON-RPC, to say so if it fails.
        t = std::make_shared<watched_transport>(std::move(t), nullptr);
    }
    {
        std::lock_guard lock(mu_);
        if (stop_) {
            error_out = "stopped while starting";
            t->close();
            return false;
        }
        connecting_ = t;
    }
    struct connecting_done {
        managed_server* s;
        ~connecting_done() {
            std::lock_guard lock(s->mu_);
            s->connecting_.reset();
        }
    } clear_connecting{this};

    client_options co;
    co.info = opts.client_info;
    // Requests without a timeout of their own (connect's are cut at `limit` by the deadline).
    co.timeout = std::max(limit, config_.timeout.value_or(opts.call_timeout));
    // `limit` bounds a server that answers nothing too: the stateless probe may take at most
    // half of it (then initialize the rest, and the listings).
    co.discover_timeout = std::min(co.discover_timeout, limit / 2);
    co.session.name = config_.name;
    co.session.ordered_responses = opts.ordered_responses;
    bool used_remembered = false;
    if (opts.protocol_version) {
        co.protocol_version = *opts.protocol_version;
    } else {
        // A server found to be of the initialize era is asked for that revision again when it
        // is restarted or reconnected: no server/discover probe (which a silent older server
        // answers only with the probe's timeout). If that fails, the next attempt probes again.
        std::lock_guard lock(mu_);
        if (remembered_revision_) {
            co.protocol_version = *remembered_revision_;
            used_remembered = true;
        }
    }
    auto c = std::make_shared<mcp::client>(co);
    const std::string name = config_.name;
    c->set_roots_request_handler([shared = shared_, name](request_context& request) {
        if (shared->options.roots_provider)
            if (auto r = shared->options.roots_provider(name, request)) return std::move(*r);
        return shared->current_roots();
    });
    if (auto p = opts.sampling)
        c->set_sampling_handler(
            [p, name](const create_message_request& r, request_context& request) {
                const control_of_request control(request);
                return p->create_message(name, r, control.get());
            },
            {.tools = p->supports_tools()});
    if (auto p = opts.elicitation)
        c->set_elicitation_handler(
            [p, name](const elicit_request& r, request_context& request) {
                const control_of_request control(request);
                return p->elicit(name, r, control.get());
            },
            {.url = p->supports_url()});
    const auto on = [self, gen](unsigned ev) {
        return [self, gen, ev] {
            if (auto s = self.lock()) s->signal(gen, ev);
        };
    };
    c->on_tools_list_changed(on(ev_tools));
    c->on_resources_list_changed(on(ev_resources));
    c->on_prompts_list_changed(on(ev_prompts));
    // The server forgot the session and the client started a new one (it subscribes again and
    // sets the logging level itself): the server may have changed meanwhile, list it again.
    c->on_session_renewed(on(ev_renewed));
    c->on_close([self, gen] {
        if (auto s = self.lock()) s->signal_closed(gen);
    });
    if (opts.on_log)
        c->on_log_message([cb = opts.on_log, name](const logging_message_notification& m) { cb(name, m); });

    std::vector<mcp::tool> tools;
    std::vector<resource> resources;
    if (opts.on_resource_updated)
        c->on_resource_updated(
            [cb = opts.on_resource_updated, name](const std::string& uri) { cb(name, uri); });
    std::vector<resource_template> templates;
    std::vector<prompt> prompts;
    // What the deadline cut short, if it did (a remote server is first asked server/discover).
    const char* waiting_for =
        config_.transport == transport_kind::stdio ? "initialize" : "server/discover and initialize";
    connect_deadline deadline(limit, t);
    try {
        const auto& init = c->connect(t);
        set_phase("listing what it offers");
        call_options list{.timeout = limit};
        if (opts.server_log_level && init.capabilities.logging) {
            try {
                waiting_for = "logging/setLevel";
                c->set_logging_level(*opts.server_log_level, list);
            } catch (const error&) {
                // A server that declares logging but refuses the level still works.
            }
        }
        if (init.capabilities.tools) {
            waiting_for = "tools/list";
            tools = c->list_all_tools(list);
        }
        if (init.capabilities.resources) {
            waiting_for = "resources/list";
            resources = c->list_all_resources(list);
            waiting_for = "resources/templates/list";
            templates = c->list_all_resource_templates(list);
        }
        if (init.capabilities.prompts) {
            waiting_for = "prompts/list";
            prompts = c->list_all_prompts(list);
        }
        if (deadline.disarm()) throw error(error_code::request_timeout, "the deadline passed");
    } catch (const std::exception& e) {
        const bool late = deadline.disarm();
        c->close();
        const auto* err = dynamic_cast<const error*>(&e);
        if (late || (err && err->code() == error_code::request_timeout))
            error_out = std::string("no answer to ") + waiting_for + " within " + seconds_text(limit);
        else
            error_out = e.what();
        if (auto tail = stderr_summary(t); !tail.empty()) error_out += ": " + tail;
        error_out += stray_summary(t);
        if (used_remembered) {
            std::lock_guard lock(mu_);
            remembered_revision_.reset(); // the server may have changed: probe next time
        }
        return false;
    }
    std::lock_guard lock(mu_);
    if (!opts.protocol_version) {
        const auto negotiated = c->protocol_version();
        if (is_initialize_era(negotiated))
            remembered_revision_ = negotiated;
        else
            remembered_revision_.reset();
    }
    if (stop_) {
        // stop() ran while we were connecting: it could not see this client, so close it here.
        c->close();
        return false;
    }
    client_ = std::move(c);
    transport_ = std::move(t);
    tools_ = std::move(tools);
    resources_ = std::move(resources);
    templates_ = std::move(templates);
    prompts_ = std::move(prompts);
    state_ = server_state::ready;
    if (restart) ++restarts_; // with `ready`, so that whoever sees it ready sees the count
    error_.clear();
    cv_.notify_all();
    return true;
}

void managed_server::refresh(unsigned events) {
    std::shared_ptr<mcp::client> c;
    {
        std::lock_guard lock(mu_);
        c = client_;
    }
    if (!c) return;
    call_options list{.timeout = config_.timeout.value_or(shared_->options.connect_timeout)};
    try {
        if (events & ev_renewed) {
            const auto caps = c->server().capabilities; // a copy: a renewal may replace it
            if (caps.tools) events |= ev_tools;
            if (caps.resources) events |= ev_resources;
            if (caps.prompts) events |= ev_prompts;
        }
        // Each list is replaced whole, under the lock, so a reader never sees half of one.
        if (events & ev_tools) {
            auto t = c->list_all_tools(list);
            std::lock_guard lock(mu_);
            tools_ = std::move(t);
        }
        if (events & ev_resources) {
            auto r = c->list_all_resources(list);
            auto rt = c->list_all_resource_templates(list);
            std::lock_guard lock(mu_);
            resources_ = std::move(r);
            templates_ = std::move(rt);
        }
        if (events & ev_prompts) {
            auto p = c->list_all_prompts(list);
            std::lock_guard lock(mu_);
            prompts_ = std::move(p);
        }
    } catch (const std::exception&) {
        // The connection is going away (its close event follows) or the server could not
        // list: keep what we had.
        return;
    }
    catalogue_changed();
}

void managed_server::supervise() {
    const auto& policy = shared_->options.restart;
    bool was_ready = false;
    int attempts = 0; // attempts tried since the last connection that stayed up
    for (;;) {
        std::string err;
        if (connect_once(err, was_ready)) {
            const auto up_since = clock::now();
            was_ready = true;
            catalogue_changed();
            std::unique_lock lock(mu_);
            for (;;) {
                cv_.wait(lock, [&] { return stop_ || closed_ || pending_ != 0; });
                if (stop_ || closed_) break;
                const unsigned ev = std::exchange(pending_, 0u);
                lock.unlock();
                refresh(ev);
                lock.lock();
            }
            if (stop_) break;
            error_ = death_message();
            state_ = server_state::restarting;
            auto dead = std::move(client_);
            cv_.notify_all();
            lock.unlock();
            if (dead) dead->close(); // reaps the child
            catalogue_changed();
            if (clock::now() - up_since >= policy.stable_after) attempts = 0;
        } else {
            std::lock_guard lock(mu_);
            if (stop_) break;
            error_ = err;
            if (!was_ready && !policy.retry_first_start) {
                // Never came up: a command run once reports it now rather than after the backoff.
                state_ = server_state::failed;
                cv_.notify_all();
                break;
            }
        }
        std::unique_lock lock(mu_);
        if (policy.max_attempts && attempts >= *policy.max_attempts) {
            state_ = server_state::failed;
            error_ +=
                " (gave up after " + std::to_string(attempts) + (was_ready ? " restarts)" : " attempts)");
            cv_.notify_all();
            break;
        }
        state_ = server_state::restarting;
        cv_.notify_all(); // wait_settled: a first start that failed is settled too
        const auto delay = backoff(policy, attempts);
        if (attempts < std::numeric_limits<int>::max()) ++attempts;
        if (cv_.wait_for(lock, delay, [&] { return stop_; })) break;
    }
    std::lock_guard lock(mu_);
    running_ = false;
    cv_.notify_all();
}

} // namespace mcp::host::detail
