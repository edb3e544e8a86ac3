// mcp/server/middleware.hpp - hooks around every method a server receives and sends, and the
// middleware mcpxx ships: authentication checks, rate limits, metrics, per-principal tool
// filtering.
//
// A receiving middleware wraps the handling of each incoming request (initialize and ping
// included), whatever carried it (stdio, a Streamable HTTP session, a stateless HTTP request)
// and in both protocol eras:
//
//   server.use([](mcp::incoming_call& call, const mcp::receive_next& next) -> mcp::json::value {
//       auto t0 = std::chrono::steady_clock::now();
//       auto result = next(call);                      // throw mcp::error to refuse instead
//       log(call.method(), std::chrono::steady_clock::now() - t0);
//       return result;                                 // or a modified copy
//   });
//
// A notification middleware sees each incoming notification (initialized, cancelled, progress,
// roots/list_changed, and any other, known to the server or not) before the server acts on it;
// not calling `next` drops it. It runs on the reading thread, in arrival order, so it must be
// quick: count, log, drop, rewrite params; never wait for the peer.
//
// Middleware run in the order they were added (the first added is the outermost). A sending
// middleware wraps what the server sends on its own initiative: requests to the client
// (sampling, elicitation, roots in the initialize era) and notifications (progress, log
// messages, list_changed, resource updates). With no middleware installed nothing is wrapped:
// the cost is one atomic load per message.
#pragma once

#include <mcp/jsonrpc/error.hpp>
#include <mcp/protocol/revision.hpp>
#include <mcp/session/session.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// Errors middleware raise (access errors). Each code is the HTTP status mcp::http::server
/// answers it with, in every protocol era and on every transport:
///
///   code           value   HTTP                     meaning
///   unauthorized   401     401 + WWW-Authenticate   no or unknown credentials
///   forbidden      403     403                      authenticated, but not allowed to do this
///   rate_limited   429     429 + Retry-After        too many requests; data {"retryAfterMs": N}
///
/// Why these values: 2026-07-28 (basic/index.mdx, "Error Codes") leaves -32000..-32019 to codes
/// allocated before it and advises new implementations against them, reserves -32020..-32099
/// to the specification, and asks for codes of one's own to be
/// allocated outside JSON-RPC's reserved -32768..-32000. Earlier revisions define no access
/// codes and leave everything outside that range to applications, so one code serves every
/// era (a client that falls back from 2026-07-28 to the initialize era sees the same code).
namespace error_code {
inline constexpr int unauthorized = 401;
inline constexpr int forbidden = 403;
inline constexpr int rate_limited = 429;
} // namespace error_code

/// An incoming request as receiving middleware see it.
class incoming_call {
public:
    incoming_call(request_context& rpc, bool stateless) : rpc_(rpc), stateless_(stateless) {}
    std::string_view method() const noexcept { return rpc_.method(); }
    const json::object& params() const noexcept { return rpc_.params(); }
    /// params.name of tools/call and prompts/get, params.uri of resources/read; "" otherwise.
    std::string_view target() const noexcept;
    /// The authenticated principal ("" when none: stdio, or no authentication configured).
    const std::string& principal() const noexcept;
    /// Headers and address when the request came over HTTP; else null.
    const message_origin* origin() const noexcept { return rpc_.origin(); }
    /// True for a request of the stateless era (2026-07-28).
    bool stateless() const noexcept { return stateless_; }
    request_context& rpc() const noexcept { return rpc_; }

private:
    request_context& rpc_;
    bool stateless_;
};

using receive_next = std::function<json::value(incoming_call&)>;
using receiving_middleware = std::function<json::value(incoming_call&, const receive_next&)>;

/// An incoming notification as notification middleware see it.
class incoming_notification {
public:
    incoming_notification(std::string_view method, json::object& params, const message_origin* origin,
                          bool stateless) noexcept
        : method_(method), params_(params), origin_(origin), stateless_(stateless) {}
    std::string_view method() const noexcept { return method_; }
    /// May be changed before calling next.
    json::object& params() const noexcept { return params_; }
    /// The authenticated principal ("" when none).
    const std::string& principal() const noexcept;
    /// Headers and address when it came over HTTP; else null.
    const message_origin* origin() const noexcept { return origin_; }
    /// True when it came without a session in the stateless era (2026-07-28), where the server
    /// has nothing to do with it.
    bool stateless() const noexcept { return stateless_; }

private:
    std::string_view method_;
    json::object& params_;
    const message_origin* origin_;
    bool stateless_;
};

using notification_next = std::function<void(incoming_notification&)>;
using notification_middleware = std::function<void(incoming_notification&, const notification_next&)>;

/// Something the server sends on its own initiative.
struct outgoing_call {
    std::string_view method;
    json::value& params;        ///< may be modified
    bool is_request = false;    ///< a request (its result comes back) or a notification
    std::string_view principal; ///< of the client it goes to, when known
};
using send_next = std::function<json::value(outgoing_call&)>;
/// For a notification, the value returned is ignored; not calling `next` drops it.
using sending_middleware = std::function<json::value(outgoing_call&, const send_next&)>;

/// A token bucket per key (a principal, an address): `rate` requests per second on average,
/// bursts of up to `burst`. Thread-safe. Keys idle for a minute are forgotten (their limits,
/// set with set_limit, are kept).
class rate_limiter {
public:
    rate_limiter(double rate_per_second, double burst);
    /// A limit of its own for `key` (e.g. a token with a bigger allowance); takes effect at once.
    /// A rate of 0 or less means no limit for that key.
    void set_limit(const std::string& key, double rate_per_second, double burst);
    /// nullopt when admitted; otherwise how long until a request would be.
    std::optional<std::chrono::milliseconds> acquire(const std::string& key);
    std::size_t keys() const;

private:
    struct bucket {
        double tokens;
        std::chrono::steady_clock::time_point last;
    };
    struct limit {
        double rate, burst;
    };
    double rate_, burst_;
    mutable std::mutex mu_;
    std::map<std::string, bucket> buckets_;
    std::map<std::string, limit> limits_;
    std::chrono::steady_clock::time_point last_sweep_ = std::chrono::steady_clock::now();
};

/// How one call is labelled in the metrics besides its method: the tool of a tools/call and,
/// for a server that fronts others (a gateway), the server behind it. Empty labels are omitted.
struct metric_labels {
    std::string server;
    std::string tool;
};
/// Labels for a call; the default labels a tools/call by its tool name and nothing else.
using metric_labeler = std::function<metric_labels(const incoming_call&)>;

class server;
/// A labeler that names a tools/call's tool only when `s` has a tool of that name, and labels
/// every other name `tool="(unknown)"`: a client calling made-up names cannot add series.
/// `s` must outlive the middleware (it does when the middleware is installed on `s`).
metric_labeler registered_tool_labels(const server& s);

struct server_metrics_options {
    /// The distinct values each of the labels `server` and `tool` may take. Values seen after
    /// that are counted under "(other)", and a value is cut after 128 bytes (marked "..."), so
    /// that the exposition stays bounded whatever names clients send (with the default labeler
    /// a tool name is whatever the client wrote; prefer registered_tool_labels, or a labeler of
    /// your own that knows the valid names).
    std::size_t max_label_values = 100;
};

/// Request counts, errors and latency per method (and per tool for tools/call, and per server
/// when a labeler says), in the Prometheus text exposition format.
///
/// Requests refused by access middleware before they were handled - 429 rate_limited,
/// 401 unauthorized, 403 forbidden (the access errors above) - are not requests of the tool or server they
/// name (nothing behind ever saw them): they are counted only in `prefix`_refused_total{method, reason},
/// reason "rate_limited" | "unauthorized" | "forbidden".
class server_metrics {
public:
    explicit server_metrics(server_metrics_options options = {});
    /// The middleware that records into this object.
    receiving_middleware middleware(metric_labeler labeler = {});
    /// Record one call by hand (for requests handled elsewhere, e.g. by a gateway's forwarder).
    void record(std::string_view method, std::string_view target, bool error,
                std::chrono::nanoseconds latency);
    void record(std::string_view method, const metric_labels& labels, bool error,
                std::chrono::nanoseconds latency);
    /// Record a request that access middleware refused (see above).
    void record_refused(std::string_view method, std::string_view reason);
    /// `prefix`_requests_total, `prefix`_errors_total, `prefix`_request_duration_seconds
    /// (histogram, 100 us .. 5 s), labelled by method, server and tool; `prefix`_refused_total
    /// by method and reason.
    std::string prometheus(std::string_view prefix = "mcp") const;

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

/// `v` as a Prometheus label value (backslash, double quote and newline escaped), for metrics
/// of one's own next to server_metrics::prometheus().
std::string prometheus_label_value(std::string_view v);

namespace middleware {
/// Refuse every request that carries no principal (401 unauthorized), except those `anonymous` names
/// (e.g. "server/discover").
receiving_middleware require_principal(std::set<std::string> anonymous = {});
/// Admit at most what `limiter` allows per principal (the remote address when there is none);
/// beyond it 429 rate_limited with data.retryAfterMs.
receiving_middleware rate_limit(std::shared_ptr<rate_limiter> limiter);
/// Show and allow only the tools `allowed(principal, tool)` accepts: tools/list results are
/// filtered, a tools/call of another tool is answered as for an unknown tool (-32602).
receiving_middleware
filter_tools(std::function<bool(const std::string& principal, const std::string& tool)> allowed);

/// What a principal may see of the catalogue, kind by kind; an unset predicate allows all of
/// that kind.
struct catalogue_filter {
    std::function<bool(const std::string& principal, const std::string& name)> tool;
    std::function<bool(const std::string& principal, const std::string& name)> prompt;
    /// A resource URI: of resources/list items, and of resources/read, resources/subscribe and
    /// resources/unsubscribe (where the URI may be one a template matches).
    std::function<bool(const std::string& principal, const std::string& uri)> resource;
    /// A resource template, by its uriTemplate text: of resources/templates/list items and of
    /// completion/complete references.
    std::function<bool(const std::string& principal, const std::string& uri_template)> resource_template;
};
/// Show and allow only what `filter` accepts. Lists (tools, prompts, resources, resource
/// templates) are filtered; a request naming something hidden is answered exactly as for
/// something that does not exist: tools/call "Unknown tool" and prompts/get "Unknown prompt"
/// (-32602), resources/read and resources/subscribe "Resource not found" (-32002; -32602 in the
/// stateless era), completion/complete "Unknown prompt" / "Unknown resource template" (-32602).
receiving_middleware filter_catalogue(catalogue_filter filter);
/// The sending side of filter_catalogue, where the server knows the principal a notification
/// goes to (a subscriptions/listen stream): drops notifications/resources/updated of a resource
/// that principal may not see, and leaves such resources out of the stream's
/// notifications/subscriptions/acknowledged.
sending_middleware filter_resource_updates(catalogue_filter filter);
} // namespace middleware

} // namespace mcp
