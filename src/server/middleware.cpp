// The middleware mcpxx ships (see mcp/server/middleware.hpp): rate limits, metrics, principal
// checks, tool filtering.
#include <mcp/server/middleware.hpp>
#include <mcp/server/server.hpp>
#include <mcp/json/utf8.hpp>

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
            value.resize(utf8::boundary_before(value, max_label_bytes));
            value += "...";
        }
        if (value.empty() || seen.count(value)) return value;
        if (seen.size() >= opts.max_label_values) return "(other)";
        seen.insert(value);
        return value;
    }
};

server_metrics::server_metrics(server_metrics_options options) : impl_(std::make_shared<impl>(options)) {}

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

namespace {

/// Keep the items of `result[member]` whose `key` `keep` accepts.
void keep_items(json::value& result, const char* member, const char* key,
                const std::function<bool(const std::string&)>& keep) {
    auto* o = result.if_object();
    auto* items = o ? o->if_contains(member) : nullptr;
    if (!items || !items->is_array()) return;
    json::array kept;
    for (auto& item : items->get_array()) {
        const auto* io = item.if_object();
        auto name = io ? find_string(*io, key) : std::nullopt;
        if (name && keep(std::string(*name))) kept.push_back(std::move(item));
    }
    items->get_array() = std::move(kept);
}

/// Keep the strings of the array `items` that `keep` accepts.
void keep_items_of(json::value& items, const std::function<bool(const std::string&)>& keep) {
    if (!items.is_array()) return;
    json::array kept;
    for (auto& item : items.get_array())
        if (item.is_string() && keep(std::string(item.get_string()))) kept.push_back(std::move(item));
    items.get_array() = std::move(kept);
}

[[noreturn]] void not_found(const incoming_call& call, const std::string& uri) {
    // 2026-07-28 made "not found" an invalid-params error (as the server does, server_methods.cpp).
    throw error(call.stateless() ? error_code::invalid_params : error_code::resource_not_found,
                "Resource not found: " + uri, json::object{{"uri", uri}});
}

} // namespace

receiving_middleware filter_tools(std::function<bool(const std::string&, const std::string&)> allowed) {
    return filter_catalogue({.tool = std::move(allowed)});
}

receiving_middleware filter_catalogue(catalogue_filter f) {
    return [f = std::move(f)](incoming_call& call, const receive_next& next) -> json::value {
        const auto& who = call.principal();
        const auto m = call.method();
        const auto& params = call.params();
        const auto ok = [&who](const auto& predicate, const std::string& name) {
            return !predicate || predicate(who, name);
        };
        if (m == "tools/call" && f.tool) {
            const std::string name(call.target());
            if (!ok(f.tool, name)) throw error(error_code::invalid_params, "Unknown tool: " + name);
        } else if (m == "prompts/get" && f.prompt) {
            const std::string name(call.target());
            if (!ok(f.prompt, name)) throw error(error_code::invalid_params, "Unknown prompt: " + name);
        } else if ((m == "resources/read" || m == "resources/subscribe" || m == "resources/unsubscribe") &&
                   f.resource) {
            if (auto uri = find_string(params, "uri"); uri && !ok(f.resource, std::string(*uri)))
                not_found(call, std::string(*uri));
        } else if (m == "completion/complete") {
            if (const auto* ref = find_object(params, "ref")) {
                const auto type = find_string(*ref, "type").value_or("");
                if (type == "ref/prompt" && f.prompt)
                    if (auto name = find_string(*ref, "name"); name && !ok(f.prompt, std::string(*name)))
                        throw error(error_code::invalid_params, "Unknown prompt: " + std::string(*name));
                if (type == "ref/resource" && f.resource_template)
                    if (auto uri = find_string(*ref, "uri");
                        uri && !ok(f.resource_template, std::string(*uri)))
                        throw error(error_code::invalid_params,
                                    "Unknown resource template: " + std::string(*uri));
            }
        }
        json::value r = next(call);
        const auto keep = [&](const auto& predicate) {
            return [&](const std::string& name) { return predicate(who, name); };
        };
        if (m == "tools/list" && f.tool)
            keep_items(r, "tools", "name", keep(f.tool));
        else if (m == "prompts/list" && f.prompt)
            keep_items(r, "prompts", "name", keep(f.prompt));
        else if (m == "resources/list" && f.resource)
            keep_items(r, "resources", "uri", keep(f.resource));
        else if (m == "resources/templates/list" && f.resource_template)
            keep_items(r, "resourceTemplates", "uriTemplate", keep(f.resource_template));
        return r;
    };
}

sending_middleware filter_resource_updates(catalogue_filter f) {
    return [f = std::move(f)](outgoing_call& call, const send_next& next) -> json::value {
        if (!f.resource || call.is_request || call.principal.empty()) return next(call);
        const std::string who(call.principal);
        auto* p = call.params.if_object();
        if (p && call.method == "notifications/resources/updated") {
            if (auto uri = find_string(*p, "uri"); uri && !f.resource(who, std::string(*uri)))
                return nullptr; // dropped
        } else if (p && call.method == "notifications/subscriptions/acknowledged") {
            // A listen stream's acknowledgement names the subscriptions granted: a hidden resource
            // is left out, as one that does not exist would be (its updates are dropped above).
            auto* granted = p->if_contains("notifications");
            auto* g = granted ? granted->if_object() : nullptr;
            if (g && g->contains("resourceSubscriptions")) {
                json::value& uris = (*g)["resourceSubscriptions"];
                keep_items_of(uris, [&](const std::string& uri) { return f.resource(who, uri); });
                if (uris.is_array() && uris.get_array().empty()) g->erase("resourceSubscriptions");
            }
        }
        return next(call);
    };
}

} // namespace middleware
} // namespace mcp
