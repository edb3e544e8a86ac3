// soak - a Streamable HTTP server under mixed traffic for minutes, with its RSS sampled, to show
// that clients who walk away cost nobody else anything (issue 17): no refused initialize, no
// error, and memory that stops growing once the session table is full.
//
//     build/bench/soak [--minutes 30] [--rate 100] [--workers 6] [--principals 16]
//                      [--max-sessions 10000] [--per-principal 1000] [--idle-timeout-s 1800]
//                      [--sample-s 5]
//
// The server runs in a child process (forked before any thread starts, so its RSS is its own):
// an mcp::server with an echo tool behind mcp::http::server on 127.0.0.1, with the library's
// defaults (30 min idle timeout, 10,000 sessions, 1,000 per principal) unless flags say
// otherwise, and an authentication hook that takes "Authorization: Bearer soak-client-N" as
// principal N, so that the traffic comes from several clients. With the defaults the lock-out of
// issue 17 appeared after ~10,000 abandoned sessions: at the default rate the table is full
// after a few minutes, and the rest of the run is the full-table regime.
//
// `workers` threads share `rate` actions per second (paced, not as fast as possible: the machine
// is shared), each action on a new connection, drawn from this mix:
//   closed     30 %  initialize, notifications/initialized, tools/call, DELETE
//   abandoned  25 %  initialize, then never again
//   stateless  20 %  a 2026-07-28 tools/call (no session)
//   malformed  10 %  a bad body: must get 4xx with a JSON-RPC error (counted as expected)
//   dropped    10 %  initialize, initialized, GET (standalone SSE stream), connection dropped
//   revisit     5 %  notifications/initialized + tools/call on one of the last 2 x max_sessions
//                    abandoned sessions: 202/200 (still there) or 404 (evicted: initialize again,
//                    which must succeed)
// An error is anything else: an unexpected status, a refused initialize (503/429), a timeout
// (5 s without an answer), a refused connection.
//
// Prints a row every 30 s (actions, errors, sessions held, RSS), then the errors seen, RSS in
// the first and second half, and the verdict against the target: 0 errors, and RSS over the
// second half at most 10 % above its value at the half.
#include "support/streamable_wire.hpp"

#include <mcp/http/server.hpp>
#include <mcp/json/json.hpp>
#include <mcp/server/server.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;
using mcp::test::http_post;
using mcp::test::http_request;
using mcp::test::raw_client;
using mcp::test::session_headers;
using clock_type = std::chrono::steady_clock;

struct options {
    double minutes = 30;
    double rate = 100; // actions per second, all workers together
    int workers = 6;
    int principals = 16;
    std::size_t max_sessions = 10000;
    std::size_t per_principal = 1000;
    long idle_timeout_s = 1800;
    long sample_s = 5;
};

int usage() {
    std::fprintf(stderr,
                 "usage: soak [--minutes M] [--rate ACTIONS_PER_S] [--workers N] [--principals N]\n"
                 "            [--max-sessions N] [--per-principal N] [--idle-timeout-s S] [--sample-s S]\n");
    return 2;
}

// ------------------------------------------------------------------ the server (child process)

[[noreturn]] void run_server(const options& o, int port_pipe) {
    mcp::server s({.info = {"soak", "1.0"}});
    s.add_tool({.name = "echo",
                .input_schema =
                    mcp::json::object{{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}},
               [](const mcp::json::object& a, mcp::context&) {
                   const auto* t = a.if_contains("text");
                   return mcp::call_tool_result{
                       .content = {mcp::text(t && t->is_string() ? std::string(t->as_string()) : "")}};
               });
    mcp::http::server_options h;
    h.max_sessions = o.max_sessions;
    h.max_sessions_per_principal = o.per_principal;
    h.session_idle_timeout = std::chrono::seconds(o.idle_timeout_s);
    h.authenticate = [](const mcp::http::request_info& r) {
        mcp::http::auth_decision d;
        if (const auto* a = r.header("Authorization"); a && a->rfind("Bearer ", 0) == 0)
            d.principal = a->substr(7);
        return d;
    };
    mcp::http::server* self = nullptr;
    h.extra_routes = [&self](const mcp::http::request_info& r, int& status,
                             std::vector<std::pair<std::string, std::string>>& headers, std::string& body) {
        if (r.target != "/soak/stats" || !self) return false;
        status = 200;
        headers.emplace_back("Content-Type", "application/json");
        body = "{\"sessions\":" + std::to_string(self->sessions()) +
               ",\"streams\":" + std::to_string(self->open_streams()) +
               ",\"connections\":" + std::to_string(self->open_connections()) + "}";
        return true;
    };
    mcp::http::install_stop_signals();
    mcp::http::server http(s, h);
    self = &http;
    try {
        http.start();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "soak server: %s\n", e.what());
        std::_Exit(1);
    }
    const unsigned short port = http.port();
    if (::write(port_pipe, &port, sizeof port) != sizeof port) std::_Exit(1);
    ::close(port_pipe);
    mcp::http::wait_for_stop_signal();
    http.stop(1s);
    std::_Exit(0);
}

// ------------------------------------------------------------------ the clients

enum kind { closed_k, abandoned_k, stateless_k, malformed_k, dropped_k, revisit_k, kinds };
const char* const kind_names[kinds] = {"closed", "abandoned", "stateless", "malformed", "dropped", "revisit"};

struct stats {
    std::atomic<long> done[kinds]{};
    std::atomic<long> errors{0};
    std::atomic<long> refused_initialize{0};
    std::atomic<long> evicted_seen{0}; // revisits answered 404
    std::mutex mu;
    std::map<std::string, long> error_kinds; // reason -> count
    std::vector<std::string> first_errors;
    /// (session, token) of the last `ring` abandoned sessions: twice the table, so that revisits
    /// find evicted sessions as well as live ones once the table is full.
    std::vector<std::pair<std::string, std::string>> abandoned;
    std::size_t abandoned_next = 0;
    std::size_t ring = 2000;

    void error(const std::string& what) {
        ++errors;
        std::lock_guard lock(mu);
        ++error_kinds[what.substr(0, what.find(':'))];
        if (first_errors.size() < 20) first_errors.push_back(what);
    }
    void remember(std::string sid, std::string token) {
        std::lock_guard lock(mu);
        if (abandoned.size() < ring)
            abandoned.emplace_back(std::move(sid), std::move(token));
        else
            abandoned[abandoned_next++ % abandoned.size()] = {std::move(sid), std::move(token)};
    }
    std::optional<std::pair<std::string, std::string>> pick(std::mt19937& rng) {
        std::lock_guard lock(mu);
        if (abandoned.empty()) return std::nullopt;
        return abandoned[std::uniform_int_distribution<std::size_t>(0, abandoned.size() - 1)(rng)];
    }
};

std::string initialize_body() {
    return R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"soak","version":"1"}}})";
}
std::string echo_body(int id, const std::string& meta = "") {
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
           R"(,"method":"tools/call","params":{"name":"echo","arguments":{"text":"soak"})" +
           (meta.empty() ? "" : R"(,"_meta":)" + meta) + "}}";
}
const std::string initialized_body = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
const std::string stateless_meta =
    R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";

std::string auth(const std::string& token) {
    return "Authorization: Bearer " + token + "\r\n";
}

// One request and its whole response; nullopt on a timeout or a cut connection.
std::optional<mcp::test::response> round_trip(raw_client& c, const std::string& request) {
    if (!c.send(request)) return std::nullopt;
    return c.read_response();
}

bool is_error_body(const mcp::test::response& r) {
    try {
        auto v = mcp::json::parse(r.body);
        return v.is_object() && v.as_object().if_contains("error");
    } catch (const std::exception&) {
        return false;
    }
}

bool has_result(const mcp::test::response& r) {
    return r.status == 200 && r.body.find("\"result\"") != std::string::npos &&
           r.body.find("soak") != std::string::npos;
}

class client {
public:
    client(unsigned short port, stats& st, std::uint32_t seed, int principals)
        : port_(port), st_(st), rng_(seed), principals_(principals) {}

    void act(kind k) {
        token_ =
            "soak-client-" + std::to_string(std::uniform_int_distribution<int>(0, principals_ - 1)(rng_));
        try {
            raw_client c(port_);
            switch (k) {
            case closed_k:
                closed(c);
                break;
            case abandoned_k:
                abandoned(c);
                break;
            case stateless_k:
                stateless(c);
                break;
            case malformed_k:
                malformed(c);
                break;
            case dropped_k:
                dropped(c);
                break;
            case revisit_k:
                revisit(c);
                break;
            default:
                break;
            }
        } catch (const std::exception& e) {
            st_.error(std::string("exception: ") + e.what());
        }
        ++st_.done[k];
    }

private:
    // initialize (+ initialized): the session id, or "" after counting the error.
    std::string open(raw_client& c, bool initialized) {
        auto r = round_trip(c, http_post(initialize_body(), auth(token_)));
        if (!r) {
            st_.error("timeout: initialize");
            return {};
        }
        if (r->status == 503 || r->status == 429) {
            ++st_.refused_initialize;
            st_.error("refused initialize: " + std::to_string(r->status) + " " + r->body.substr(0, 200));
            return {};
        }
        auto sid = r->header("Mcp-Session-Id");
        if (r->status != 200 || !sid) {
            st_.error("initialize: status " + std::to_string(r->status) + " " + r->body.substr(0, 200));
            return {};
        }
        if (initialized) {
            auto ack = round_trip(c, http_post(initialized_body, auth(token_) + session_headers(*sid)));
            if (!ack || ack->status != 202) {
                st_.error(ack ? "initialized: status " + std::to_string(ack->status)
                              : "timeout: initialized");
                return {};
            }
        }
        return *sid;
    }

    bool call(raw_client& c, const std::string& sid) {
        auto r = round_trip(c, http_post(echo_body(2), auth(token_) + session_headers(sid)));
        if (!r) {
            st_.error("timeout: tools/call");
            return false;
        }
        if (!has_result(*r)) {
            st_.error("tools/call: status " + std::to_string(r->status) + " " + r->body.substr(0, 200));
            return false;
        }
        return true;
    }

    void closed(raw_client& c) {
        const auto sid = open(c, true);
        if (sid.empty() || !call(c, sid)) return;
        auto r = round_trip(c, http_request("DELETE", "/mcp", auth(token_) + session_headers(sid)));
        if (!r || r->status != 200)
            st_.error(r ? "DELETE: status " + std::to_string(r->status) : "timeout: DELETE");
    }

    void abandoned(raw_client& c) {
        const auto sid = open(c, false);
        if (!sid.empty()) st_.remember(sid, token_);
    }

    void stateless(raw_client& c) {
        auto r = round_trip(
            c, http_post(
                   echo_body(3, stateless_meta),
                   auth(token_) +
                       "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: echo\r\n"));
        if (!r)
            st_.error("timeout: stateless tools/call");
        else if (!has_result(*r))
            st_.error("stateless tools/call: status " + std::to_string(r->status) + " " +
                      r->body.substr(0, 200));
    }

    void malformed(raw_client& c) {
        static const std::string bodies[] = {
            "{not json",
            R"({"jsonrpc":"2.0","id":1})",
            R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})", // no session
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":[]})",
        };
        const auto& body = bodies[std::uniform_int_distribution<std::size_t>(0, std::size(bodies) - 1)(rng_)];
        auto r = round_trip(c, http_post(body, auth(token_)));
        if (!r)
            st_.error("timeout: malformed body");
        else if (r->status < 400 || r->status > 499 || !is_error_body(*r))
            st_.error("malformed body: status " + std::to_string(r->status) + " for " + body + ": " +
                      r->body.substr(0, 200));
    }

    void dropped(raw_client& c) {
        const auto sid = open(c, true);
        if (sid.empty()) return;
        if (!c.send(http_request("GET", "/mcp",
                                 "Accept: text/event-stream\r\n" + auth(token_) + session_headers(sid)))) {
            st_.error("GET: send failed");
            return;
        }
        auto head = c.read_head();
        if (!head || head->status != 200)
            st_.error(head ? "GET: status " + std::to_string(head->status) : "timeout: GET");
        // ~raw_client drops the connection with the stream open
    }

    void revisit(raw_client& c) {
        auto old = st_.pick(rng_);
        if (!old) return abandoned(c);
        token_ = old->second;
        // It never sent notifications/initialized: that first (its session may have been evicted).
        auto r = round_trip(c, http_post(initialized_body, auth(token_) + session_headers(old->first)));
        if (!r) {
            st_.error("timeout: revisit");
            return;
        }
        if (r->status == 404 && is_error_body(*r)) { // evicted: a well-behaved client starts again
            ++st_.evicted_seen;
            const auto sid = open(c, true);
            if (!sid.empty()) call(c, sid);
            return;
        }
        if (r->status != 202) {
            st_.error("revisit: status " + std::to_string(r->status) + " " + r->body.substr(0, 200));
            return;
        }
        call(c, old->first);
    }

    unsigned short port_;
    stats& st_;
    std::mt19937 rng_;
    int principals_;
    std::string token_;
};

kind draw(std::mt19937& rng) {
    static const int weights[kinds] = {30, 25, 20, 10, 10, 5};
    std::discrete_distribution<int> d(std::begin(weights), std::end(weights));
    return static_cast<kind>(d(rng));
}

long rss_kib(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
    return -1;
}

long held_sessions(unsigned short port) {
    try {
        raw_client c(port);
        auto r = round_trip(c, http_request("GET", "/soak/stats"));
        if (!r || r->status != 200) return -1;
        return mcp::json::parse(r->body).as_object().at("sessions").to_number<long>();
    } catch (const std::exception&) {
        return -1;
    }
}

struct sample {
    double t_s;
    long rss;
    long sessions;
    long actions;
    long errors;
};

} // namespace

int main(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) return usage();
        const char* v = argv[++i];
        try {
            if (a == "--minutes")
                o.minutes = std::stod(v);
            else if (a == "--rate")
                o.rate = std::stod(v);
            else if (a == "--workers")
                o.workers = std::stoi(v);
            else if (a == "--principals")
                o.principals = std::stoi(v);
            else if (a == "--max-sessions")
                o.max_sessions = std::stoul(v);
            else if (a == "--per-principal")
                o.per_principal = std::stoul(v);
            else if (a == "--idle-timeout-s")
                o.idle_timeout_s = std::stol(v);
            else if (a == "--sample-s")
                o.sample_s = std::stol(v);
            else
                return usage();
        } catch (const std::exception&) {
            return usage();
        }
    }
    if (o.minutes <= 0 || o.rate <= 0 || o.workers < 1 || o.principals < 1 || o.max_sessions == 0 ||
        o.idle_timeout_s < 1 || o.sample_s < 1)
        return usage();

    int fds[2];
    if (::pipe(fds) != 0) return 1;
    const pid_t child = ::fork(); // before any thread: the child is a clean server process
    if (child < 0) return 1;
    if (child == 0) {
        ::close(fds[0]);
        run_server(o, fds[1]);
    }
    ::close(fds[1]);
    unsigned short port = 0;
    if (::read(fds[0], &port, sizeof port) != sizeof port) {
        std::fprintf(stderr, "soak: the server did not start\n");
        ::waitpid(child, nullptr, 0);
        return 1;
    }
    ::close(fds[0]);

    std::printf(
        "soak: %.1f min, %.0f actions/s over %d workers, %d principals, max_sessions %zu, per principal "
        "%zu, idle timeout %ld s; server pid %d on 127.0.0.1:%u\n",
        o.minutes, o.rate, o.workers, o.principals, o.max_sessions, o.per_principal, o.idle_timeout_s,
        static_cast<int>(child), port);
    std::printf("%8s %9s %7s %9s %10s %9s\n", "time", "actions", "errors", "sessions", "evicted404",
                "RSS MiB");
    std::fflush(stdout);

    stats st;
    st.ring = std::max<std::size_t>(2000, 2 * o.max_sessions);
    const auto start = clock_type::now();
    const auto end = start + std::chrono::duration_cast<clock_type::duration>(
                                 std::chrono::duration<double>(o.minutes * 60));
    const auto interval =
        std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(1.0 / o.rate));
    std::atomic<clock_type::rep> next_slot{start.time_since_epoch().count()};
    std::vector<std::thread> workers;
    for (int w = 0; w < o.workers; ++w)
        workers.emplace_back([&, w] {
            std::mt19937 rng(static_cast<std::uint32_t>(1234 + w));
            client cl(port, st, static_cast<std::uint32_t>(99 + w), o.principals);
            for (;;) {
                const auto slot =
                    clock_type::time_point(clock_type::duration(next_slot.fetch_add(interval.count())));
                if (slot >= end) return;
                std::this_thread::sleep_until(slot);
                cl.act(draw(rng));
            }
        });

    std::vector<sample> samples;
    auto next_sample = start;
    long printed = 0;
    while (clock_type::now() < end) {
        next_sample += std::chrono::seconds(o.sample_s);
        std::this_thread::sleep_until(std::min(next_sample, end));
        long actions = 0;
        for (auto& d : st.done) actions += d.load();
        const double t = std::chrono::duration<double>(clock_type::now() - start).count();
        samples.push_back({t, rss_kib(child), held_sessions(port), actions, st.errors.load()});
        if (t >= 30.0 * static_cast<double>(printed + 1) || clock_type::now() >= end) {
            printed = static_cast<long>(t / 30.0);
            const auto& s = samples.back();
            std::printf("%7.0fs %9ld %7ld %9ld %10ld %9.1f\n", s.t_s, s.actions, s.errors, s.sessions,
                        st.evicted_seen.load(), static_cast<double>(s.rss) / 1024.0);
            std::fflush(stdout);
        }
    }
    for (auto& w : workers) w.join();
    const long final_rss = rss_kib(child);
    ::kill(child, SIGTERM);
    int status = 0;
    ::waitpid(child, &status, 0);

    long actions = 0;
    std::printf("\nactions:");
    for (int k = 0; k < kinds; ++k) {
        std::printf(" %s %ld", kind_names[k], st.done[k].load());
        actions += st.done[k].load();
    }
    std::printf(" (total %ld, %.1f/s); revisits that found their session evicted: %ld\n", actions,
                static_cast<double>(actions) / (o.minutes * 60), st.evicted_seen.load());
    std::printf("errors: %ld (refused initialize: %ld)\n", st.errors.load(), st.refused_initialize.load());
    for (const auto& [what, n] : st.error_kinds) std::printf("  %6ld  %s\n", n, what.c_str());
    for (const auto& e : st.first_errors) std::printf("  e.g. %s\n", e.c_str());

    // RSS: the mean of each half, and over the second half the largest sample against the one at
    // the half (the target: at most +10 %).
    const double half = o.minutes * 30;
    double sum1 = 0, sum2 = 0;
    long n1 = 0, n2 = 0, at_half = -1, max2 = 0;
    for (const auto& s : samples) {
        if (s.rss < 0) continue;
        if (s.t_s < half) {
            sum1 += static_cast<double>(s.rss);
            ++n1;
        } else {
            if (at_half < 0) at_half = s.rss;
            sum2 += static_cast<double>(s.rss);
            ++n2;
            max2 = std::max(max2, s.rss);
        }
    }
    const double growth =
        at_half > 0 ? 100.0 * (static_cast<double>(max2) / static_cast<double>(at_half) - 1) : 0;
    std::printf(
        "RSS MiB: first half mean %.1f, second half mean %.1f; at the half %.1f, second-half max %.1f "
        "(%+.1f %%), at the end %.1f\n",
        n1 ? sum1 / static_cast<double>(n1) / 1024 : 0.0, n2 ? sum2 / static_cast<double>(n2) / 1024 : 0.0,
        static_cast<double>(at_half) / 1024, static_cast<double>(max2) / 1024, growth,
        static_cast<double>(final_rss) / 1024);
    const bool server_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!server_ok) std::printf("the server did not exit cleanly (status %d)\n", status);
    const bool pass = st.errors.load() == 0 && n2 > 0 && growth <= 10.0 && server_ok;
    std::printf("verdict: %s (target: 0 errors, RSS over the second half <= +10 %%)\n",
                pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
}
