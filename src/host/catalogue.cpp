// Catalogue names: server__tool, model-safe and unique (see mcp/host/catalogue.hpp).
#include <mcp/host/catalogue.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>

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

std::vector<std::string> catalogue_names::assign(const std::vector<pair>& pairs) {
    std::vector<std::string> names(pairs.size());
    std::vector<std::size_t> unnamed;
    std::lock_guard lock(mu_);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (auto it = by_pair_.find(pairs[i]); it != by_pair_.end())
            names[i] = it->second;
        else
            unnamed.push_back(i);
    }
    std::stable_sort(unnamed.begin(), unnamed.end(), [&](auto a, auto b) { return pairs[a] < pairs[b]; });
    for (auto i : unnamed) {
        if (auto it = by_pair_.find(pairs[i]); it != by_pair_.end()) { // listed twice
            names[i] = it->second;
            continue;
        }
        const auto& [server, item] = pairs[i];
        std::string base = sanitize_name(server) + "__" + sanitize_name(item);
        // Too long: cut, and keep the full pair's identity in a hash so that two long names
        // that share a prefix stay apart.
        if (base.size() > max_tool_name_length) base = fit(base, "_" + short_hash(server, item));
        std::string name = base;
        // Every name ever given counts as taken: one that went away with its server's restart
        // comes back with it.
        for (int n = 2; by_name_.count(name); ++n) name = fit(base, "_" + std::to_string(n));
        by_name_.emplace(name, pairs[i]);
        by_pair_.emplace(pairs[i], name);
        names[i] = std::move(name);
    }
    return names;
}

std::optional<std::string> catalogue_names::name_of(const std::string& server,
                                                    const std::string& item) const {
    std::lock_guard lock(mu_);
    auto it = by_pair_.find(pair(server, item));
    if (it == by_pair_.end()) return std::nullopt;
    return it->second;
}

std::optional<catalogue_names::pair> catalogue_names::owner(const std::string& name) const {
    std::lock_guard lock(mu_);
    auto it = by_name_.find(name);
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
}

std::vector<std::string> qualify_tool_names(const std::vector<std::pair<std::string, std::string>>& pairs) {
    return catalogue_names().assign(pairs);
}

} // namespace mcp::host
