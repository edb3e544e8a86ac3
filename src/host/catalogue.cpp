// Catalogue names: server__tool, model-safe and unique (see mcp/host/catalogue.hpp).
#include <mcp/host/catalogue.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <set>

namespace mcp::host {
namespace {

bool safe(char c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// FNV-1a: short, stable across runs and platforms (std::hash is neither promised).
std::string short_hash(std::string_view a, std::string_view b) {
    std::uint64_t h = 1469598103934665603ull;
    const auto mix = [&](std::string_view s) {
        for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    };
    mix(a);
    mix(std::string_view("\0", 1));
    mix(b);
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return std::string(buf, 8);
}

std::string fit(std::string base, std::string_view suffix) {
    if (base.size() + suffix.size() > max_tool_name_length) base.resize(max_tool_name_length - suffix.size());
    return base + std::string(suffix);
}

} // namespace

std::string sanitize_name(std::string_view s) {
    if (s.empty()) return "_";
    std::string out(s);
    for (auto& c : out)
        if (!safe(c)) c = '_';
    return out;
}

std::vector<std::string> qualify_tool_names(const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::vector<std::size_t> order(pairs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return pairs[a] < pairs[b]; });

    std::vector<std::string> names(pairs.size());
    std::set<std::string> used;
    for (auto i : order) {
        const auto& [server, tool] = pairs[i];
        std::string base = sanitize_name(server) + "__" + sanitize_name(tool);
        // Too long: cut, and keep the full pair's identity in a hash so that two long names
        // that share a prefix stay apart.
        if (base.size() > max_tool_name_length) base = fit(base, "_" + short_hash(server, tool));
        std::string name = base;
        for (int n = 2; used.count(name); ++n) name = fit(base, "_" + std::to_string(n));
        used.insert(name);
        names[i] = std::move(name);
    }
    return names;
}

} // namespace mcp::host
