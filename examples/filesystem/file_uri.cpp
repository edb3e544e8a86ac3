#include "file_uri.hpp"

namespace mcp::files {
namespace {

bool unreserved(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != prefix[i]) return false;
    }
    return true;
}

} // namespace

std::string file_uri(const std::filesystem::path& absolute) {
    static constexpr char digits[] = "0123456789ABCDEF";
    const std::string& p = absolute.native();
    std::string out = "file://";
    out.reserve(out.size() + p.size());
    for (unsigned char c : p) {
        if (unreserved(c) || c == '/') {
            out.push_back(static_cast<char>(c));
        } else {
            out.push_back('%');
            out.push_back(digits[c >> 4]);
            out.push_back(digits[c & 15]);
        }
    }
    return out;
}

std::optional<std::filesystem::path> path_of_file_uri(std::string_view uri) {
    if (!starts_with_ci(uri, "file:")) return std::nullopt;
    std::string_view rest = uri.substr(5);
    if (rest.substr(0, 2) == "//") {
        rest.remove_prefix(2);
        const auto slash = rest.find('/');
        if (slash == std::string_view::npos) return std::nullopt;
        const std::string_view host = rest.substr(0, slash);
        // Only this machine: a file URI naming another host is not ours to read.
        if (!host.empty() && !(host.size() == 9 && starts_with_ci(host, "localhost"))) return std::nullopt;
        rest.remove_prefix(slash);
    }
    if (rest.empty() || rest.front() != '/') return std::nullopt;
    std::string decoded;
    decoded.reserve(rest.size());
    for (std::size_t i = 0; i < rest.size(); ++i) {
        const char c = rest[i];
        if (c == '?' || c == '#') return std::nullopt; // files have no query or fragment
        if (c != '%') {
            decoded.push_back(c);
            continue;
        }
        if (i + 2 >= rest.size()) return std::nullopt;
        const int hi = hex_value(rest[i + 1]), lo = hex_value(rest[i + 2]);
        if (hi < 0 || lo < 0) return std::nullopt;
        const char byte = static_cast<char>(hi * 16 + lo);
        if (byte == '\0') return std::nullopt; // would cut the path short in every system call
        decoded.push_back(byte);
        i += 2;
    }
    return std::filesystem::path(std::move(decoded));
}

} // namespace mcp::files
