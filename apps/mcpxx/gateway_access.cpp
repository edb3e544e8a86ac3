#include "gateway_access.hpp"
#include "read_file.hpp"

#include <mcp/host/audit.hpp>

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <mutex>
#include <sstream>
#include <vector>

namespace mcpxx_cli {

namespace {

std::string trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return std::string(s);
}

std::optional<double> number_of(const mcp::json::object& o, const char* key, const std::string& where) {
    const auto* v = o.if_contains(key);
    if (!v) return std::nullopt;
    if (v->is_int64()) return static_cast<double>(v->get_int64());
    if (v->is_uint64()) return static_cast<double>(v->get_uint64());
    if (v->is_double()) return v->get_double();
    throw input_error(where + ": \"" + key + "\" must be a number");
}

} // namespace

void gateway_tokens::add(const std::string& token, gateway_token t, const std::string& where) {
    if (t.principal.empty()) t.principal = "token-" + mcp::host::sha256_hex(token).substr(0, 8);
    if (auto it = principals_.find(t.principal); it != principals_.end() && !(it->second == t))
        throw input_error(where + ": \"" + t.principal + "\" was given other settings before");
    try {
        bearer_.add(token, t.principal);
    } catch (const std::invalid_argument& e) {
        throw input_error(where + ": " + e.what());
    }
    principals_.emplace(t.principal, std::move(t));
}

void gateway_tokens::load_file(const std::string& path) {
    const std::string text = read_text_file(path);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {
        const auto doc = read_json_file(path);
        const auto* tokens = doc.is_object() ? doc.get_object().if_contains("tokens") : nullptr;
        if (!tokens || !tokens->is_array()) throw input_error(path + ": expected {\"tokens\": [...]}");
        std::size_t i = 0;
        for (const auto& e : tokens->get_array()) {
            const std::string where = path + ": tokens[" + std::to_string(i++) + "]";
            if (!e.is_object()) throw input_error(where + ": expected an object");
            const auto& o = e.get_object();
            for (const auto& kv : o)
                if (kv.key() != "token" && kv.key() != "name" && kv.key() != "rate" && kv.key() != "burst" &&
                    kv.key() != "tools" && kv.key() != "resources")
                    throw input_error(where + ": unknown field \"" + std::string(kv.key()) + "\"");
            auto token = mcp::find_string(o, "token");
            if (!token) throw input_error(where + ": \"token\" (a string) is required");
            gateway_token t;
            if (auto n = mcp::find_string(o, "name")) t.principal = std::string(*n);
            t.rate = number_of(o, "rate", where);
            t.burst = number_of(o, "burst", where);
            const auto patterns = [&](const char* key, std::vector<std::string>& out) {
                const auto* list = o.if_contains(key);
                if (!list) return;
                if (!list->is_array())
                    throw input_error(where + ": \"" + key + "\" must be an array of patterns");
                for (const auto& p : list->get_array()) {
                    if (!p.is_string()) throw input_error(where + ": \"" + key + "\" must hold strings");
                    out.emplace_back(p.get_string());
                }
            };
            patterns("tools", t.tools);
            patterns("resources", t.resources);
            add(std::string(*token), std::move(t), where);
        }
        return;
    }
    std::istringstream in(text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        auto l = trim(line);
        if (l.empty() || l[0] == '#') continue;
        gateway_token t;
        std::string token = l;
        if (auto sp = l.find_first_of(" \t"); sp != std::string::npos) {
            token = l.substr(0, sp);
            t.principal = trim(std::string_view(l).substr(sp));
        }
        add(token, std::move(t), path + ":" + std::to_string(n));
    }
}

void gateway_tokens::load_list(std::string_view list, std::string_view source) {
    std::string token;
    auto flush = [&] {
        if (!token.empty()) add(token, {}, std::string(source));
        token.clear();
    };
    for (char c : list) {
        if (c == ',' || c == ' ' || c == '\n' || c == '\t' || c == '\r')
            flush();
        else
            token.push_back(c);
    }
    flush();
}

bool glob_match(std::string_view pattern, std::string_view name) {
    // Iterative matching with one backtrack point per '*': linear in practice.
    std::size_t p = 0, n = 0, star = std::string_view::npos, mark = 0;
    while (n < name.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = n;
        } else if (p < pattern.size() && pattern[p] == name[n]) {
            ++p;
            ++n;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            n = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

bool glob_admits_prefix(std::string_view pattern, std::string_view prefix) {
    // The positions of `pattern` that some match of `prefix` may end at; any of them can then
    // be completed (a literal by itself, a '*' by anything).
    std::vector<bool> at(pattern.size() + 1, false);
    const auto close = [&](std::vector<bool>& v) { // a '*' may match nothing
        for (std::size_t i = 0; i < pattern.size(); ++i)
            if (v[i] && pattern[i] == '*') v[i + 1] = true;
    };
    at[0] = true;
    close(at);
    for (char c : prefix) {
        std::vector<bool> next(pattern.size() + 1, false);
        for (std::size_t i = 0; i < pattern.size(); ++i) {
            if (!at[i]) continue;
            if (pattern[i] == '*')
                next[i] = true; // the '*' takes c
            else if (pattern[i] == c)
                next[i + 1] = true;
        }
        close(next);
        at = std::move(next);
    }
    for (bool b : at)
        if (b) return true;
    return false;
}

void log_json(std::string_view level, mcp::json::object fields) {
    const auto now = std::chrono::system_clock::now();
    const auto t = std::chrono::system_clock::to_time_t(now);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char stamp[96];
    std::snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    mcp::json::object line;
    line["time"] = stamp;
    line["level"] = level;
    for (auto& kv : fields) line[kv.key()] = std::move(kv.value());
    std::string text = mcp::to_json(mcp::json::value(std::move(line)));
    text.push_back('\n');
    static std::mutex mu; // one write per line; the mutex keeps partial writes of a line together
    std::lock_guard lock(mu);
    for (std::string_view rest = text; !rest.empty();) {
        const auto n = ::write(2, rest.data(), rest.size());
        if (n <= 0) break;
        rest.remove_prefix(static_cast<std::size_t>(n));
    }
}

} // namespace mcpxx_cli
