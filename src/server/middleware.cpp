// The middleware mcpxx ships (see mcp/server/middleware.hpp): rate limits, metrics, principal
// checks, tool filtering.
#include <mcp/server/middleware.hpp>
#include <mcp/server/server.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace mcp {

// ------------------------------------------------------------------------------ incoming_call

std::string_view incoming_call::target() const noexcept {
    const auto m = method();
    const char* key = m == "resources/read"                       ? "uri"
                      : (m == "tools/call" || m == "prompts/get") ? "name"
                                                                  : nullptr;
    if (!key) return {};
    return find_string(params(), key).value_or(std::string_view());
}

const std::string& incoming_call::principal() const noexcept {
    static const std::string none;
    const auto* o = rpc_.origin();
    return o ? o->principal : none;
}

const std::string& incoming_notification::principal() const noexcept {
    static const std::string none;
    return origin_ ? origin_->principal : none;
}

// ------------------------------------------------------------------------------- rate_limiter

rate_limiter::rate_limiter(double rate_per_second, double burst)
    : rate_(std::max(rate_per_second, 1e-9)), burst_(std::max(burst, 1.0)) {}

void rate_limiter::set_limit(const std::string& key, double rate_per_second, double burst) {
    std::lock_guard lock(mu_);
    limits_[key] = limit{rate_per_second, std::max(burst, 1.0)};
    buckets_.erase(key); // starts again with a full bucket of the new size
}

std::optional<std::chrono::milliseconds> rate_limiter::acquire(const std::string& key) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mu_);
    double rate = rate_, burst = burst_;
    if (auto l = limits_.find(key); l != limits_.end()) {
        if (l->second.rate <= 0) return std::nullopt; // unlimited
        rate = l->second.rate;
        burst = l->second.burst;
    }
    if (now - last_sweep_ > std::chrono::minutes(1)) {
        // Buckets idle for a minute are full again anyway: forget them (bounded memory).
        std::erase_if(buckets_,
                      [&](const auto& kv) { return now - kv.second.last > std::chrono::minutes(1); });
        last_sweep_ = now;
    }
    auto [it, fresh] = buckets_.try_emplace(key, bucket{burst, now});
    auto& b = it->second;
    if (!fresh) {
        const double elapsed = std::chrono::duration<double>(now - b.last).count();
        b.tokens = std::min(burst, b.tokens + elapsed * rate);
        b.last = now;
    }
    if (b.tokens >= 1.0) {
        b.tokens -= 1.0;
        return std::nullopt;
    }
    const double wait_s = (1.0 - b.tokens) / rate;
    return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(wait_s * 1000)));
}

std::size_t rate_limiter::keys() const {
    std::lock_guard lock(mu_);
    return buckets_.size();
}

// ----------------------------------------------------------------------------- server_metrics

namespace {
constexpr std::array<double, 14> bucket_bounds{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                               0.025,  0.05,    0.1,    0.25,  0.5,    1.0,   5.0};
} // namespace

struct server_metrics::impl {
    static constexpr std::size_t max_label_bytes = 128;
    struct series {
        std::uint64_t requests = 0, errors = 0;
        double seconds = 0;
        std::array<std::uint64_t, bucket_bounds.size()> buckets{};
    };
    struct key {
        std::string method, server, tool;
        auto operator<=>(const key&) const = default;
    };
    explicit impl(server_metrics_options o) : opts(o) {}
    const server_metrics_options opts;
    mutable std::mutex mu;
    std::map<key, series> by_call;
    std::map<std::pair<std::string, std::string>, std::uint64_t> refused; ///< (method, reason)
    std::set<std::string> servers_seen, tools_seen;

    /// `value` (its first max_label_bytes), or "(other)" once max_label_values others have been
    /// seen. Under `mu`.
    std::string bounded(std::set<std::string>& seen, std::string value) const {
        if (value.size() > max_label_bytes) {
            std::size_t cut = max_label_bytes;
            while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut; // UTF-8
            value.resize(cut);
            value += "...";
        }
        if (value.empty() || seen.count(value)) return value;
        if (seen.size() >= opts.max_label_values) return "(other)";
        seen.insert(value);
        return value;
    }
};

server_metrics::server_metrics(server_metrics_options options)
    : impl_(std::make_shared<impl>(options)) {}

namespace {
void record_into(server_metrics::impl& m, std::string_view method, const metric_labels& labels, bool error,
                 std::chrono::nanoseconds latency) {
    const double s = std::chrono::duration<double>(latency).count();
    std::lock_guard lock(m.mu);
    // The method is one the server dispatched (or refused as unknown, which a client cannot
    // vary without bound either: unknown methods never reach the receiving middleware).
    auto& x = m.by_call[{std::string(method), m.bounded(m.servers_seen, labels.server),
                         m.bounded(m.tools_seen, labels.tool)}];
    ++x.requests;
    if (error) ++x.errors;
    x.seconds += s;
    for (std::size_t i = 0; i < bucket_bounds.size(); ++i)
        if (s <= bucket_bounds[i]) ++x.buckets[i];
}

void refused_into(server_metrics::impl& m, std::string_view method, std::string_view reason) {
    std::lock_guard lock(m.mu);
    ++m.refused[{std::string(method), std::string(reason)}];
}

/// The reason an access middleware refused with, or null for any other error.
const char* refusal_reason(int code) noexcept {
    switch (code) {
    case error_code::rate_limited:
        return "rate_limited";
    case error_code::unauthorized:
        return "unauthorized";
    case error_code::forbidden:
        return "forbidden";
    default:
        return nullptr;
    }
}

// Only tools are labelled by name by default: resource URIs are unbounded, prompt names rarely
// matter. The names are the client's: server_metrics bounds how many it keeps.
metric_labels default_labels(std::string_view method, std::string_view target) {
    return {{}, method == "tools/call" ? std::string(target) : std::string()};
}
} // namespace

metric_labeler registered_tool_labels(const server& s) {
    return [&s](const incoming_call& call) -> metric_labels {
        if (call.method() != "tools/call") return {};
        const std::string name(call.target());
        return {{}, s.find_tool(name) ? name : std::string("(unknown)")};
    };
}

void server_metrics::record(std::string_view method, std::string_view target, bool error,
                            std::chrono::nanoseconds latency) {
    record_into(*impl_, method, default_labels(method, target), error, latency);
}

void server_metrics::record(std::string_view method, const metric_labels& labels, bool error,
                            std::chrono::nanoseconds latency) {
    record_into(*impl_, method, labels, error, latency);
}

void server_metrics::record_refused(std::string_view method, std::string_view reason) {
    refused_into(*impl_, method, reason);
}

receiving_middleware server_metrics::middleware(metric_labeler labeler) {
    // Holds the counters, not this object: the middleware may outlive it.
    return [self = impl_, labeler = std::move(labeler)](incoming_call& call,
                                                        const receive_next& next) -> json::value {
        const auto t0 = std::chrono::steady_clock::now();
        auto labels = [&] { return labeler ? labeler(call) : default_labels(call.method(), call.target()); };
        try {
            json::value r = next(call);
            // A tool that failed answers with isError: count it as an error too.
            bool failed = false;
            if (const auto* o = r.if_object())
                if (const auto* e = o->if_contains("isError"); e && e->is_bool()) failed = e->get_bool();
            record_into(*self, call.method(), labels(), failed, std::chrono::steady_clock::now() - t0);
            return r;
        } catch (const error& e) {
            if (const char* reason = refusal_reason(e.code()))
                refused_into(*self, call.method(), reason);
            else
                record_into(*self, call.method(), labels(), true, std::chrono::steady_clock::now() - t0);
            throw;
        } catch (...) {
            record_into(*self, call.method(), labels(), true, std::chrono::steady_clock::now() - t0);
            throw;
        }
    };
}

std::string prometheus_label_value(std::string_view v) {
    std::string out;
    for (char c : v) {
        if (c == '\\' || c == '"') out.push_back('\\');
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out.push_back(c);
    }
    return out;
}

namespace {
std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}
} // namespace

std::string server_metrics::prometheus(std::string_view prefix) const {
    const std::string p(prefix);
    std::string out;
    std::lock_guard lock(impl_->mu);
    auto labels = [](const impl::key& k, const std::string& extra = {}) {
        std::string l = "{method=\"" + prometheus_label_value(k.method) + "\"";
        if (!k.server.empty()) l += ",server=\"" + prometheus_label_value(k.server) + "\"";
        if (!k.tool.empty()) l += ",tool=\"" + prometheus_label_value(k.tool) + "\"";
        if (!extra.empty()) l += "," + extra;
        return l + "}";
    };
    out += "# HELP " + p + "_requests_total MCP requests handled.\n# TYPE " + p + "_requests_total counter\n";
    for (const auto& [k, s] : impl_->by_call)
        out += p + "_requests_total" + labels(k) + " " + std::to_string(s.requests) + "\n";
    out += "# HELP " + p +
           "_errors_total MCP requests that failed (JSON-RPC error or tool isError).\n# TYPE " + p +
           "_errors_total counter\n";
    for (const auto& [k, s] : impl_->by_call)
        out += p + "_errors_total" + labels(k) + " " + std::to_string(s.errors) + "\n";
    out += "# HELP " + p + "_request_duration_seconds Time to handle an MCP request.\n# TYPE " + p +
           "_request_duration_seconds histogram\n";
    for (const auto& [k, s] : impl_->by_call) {
        for (std::size_t i = 0; i < bucket_bounds.size(); ++i)
            out += p + "_request_duration_seconds_bucket" +
                   labels(k, "le=\"" + number(bucket_bounds[i]) + "\"") + " " + std::to_string(s.buckets[i]) +
                   "\n";
        out += p + "_request_duration_seconds_bucket" + labels(k, "le=\"+Inf\"") + " " +
               std::to_string(s.requests) + "\n";
        out += p + "_request_duration_seconds_sum" + labels(k) + " " + number(s.seconds) + "\n";
        out += p + "_request_duration_seconds_count" + labels(k) + " " + std::to_string(s.requests) + "\n";
    }
    out += "# HELP " + p +
           "_refused_total MCP requests refused before they were handled (rate limit, credentials, "
           "access).\n# TYPE " +
           p + "_refused_total counter\n";
    for (const auto& [k, n] : impl_->refused)
        out += p + "_refused_total{method=\"" + prometheus_label_value(k.first) + "\",reason=\"" +
               prometheus_label_value(k.second) + "\"} " + std::to_string(n) + "\n";
    return out;
}

// ------------------------------------------------------------------------------ middleware::*

namespace middleware {

receiving_middleware require_principal(std::set<std::string> anonymous) {
    return [anonymous = std::move(anonymous)](incoming_call& call, const receive_next& next) -> json::value {
        if (call.principal().empty() && !anonymous.count(std::string(call.method())))
            throw error(error_code::unauthorized, "Unauthorized: this server needs credentials");
        return next(call);
    };
}

receiving_middleware rate_limit(std::shared_ptr<rate_limiter> limiter) {
    return [limiter = std::move(limiter)](incoming_call& call, const receive_next& next) -> json::value {
        std::string key = call.principal();
        if (key.empty() && call.origin()) key = "addr:" + call.origin()->remote_address;
        if (auto wait = limiter->acquire(key))
            throw error(error_code::rate_limited,
                        "Too many requests: retry in " + std::to_string(wait->count()) + " ms",
                        json::object{{"retryAfterMs", wait->count()}});
        return next(call);
    };
}

receiving_middleware filter_tools(std::function<bool(const std::string&, const std::string&)> allowed) {
    return [allowed = std::move(allowed)](incoming_call& call, const receive_next& next) -> json::value {
        const auto& who = call.principal();
        if (call.method() == "tools/call") {
            const std::string tool(call.target());
            if (!allowed(who, tool)) throw error(error_code::invalid_params, "Unknown tool: " + tool);
            return next(call);
        }
        json::value r = next(call);
        if (call.method() == "tools/list")
            if (auto* o = r.if_object())
                if (auto* tools = o->if_contains("tools"); tools && tools->is_array()) {
                    auto& a = tools->get_array();
                    json::array kept;
                    for (auto& t : a) {
                        const auto* to = t.if_object();
                        auto name = to ? find_string(*to, "name") : std::nullopt;
                        if (name && allowed(who, std::string(*name))) kept.push_back(std::move(t));
                    }
                    a = std::move(kept);
                }
        return r;
    };
}

} // namespace middleware
} // namespace mcp
