#include "content_type.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>

namespace mcp::files {
namespace {

// Sorted by extension, for a binary search.
constexpr std::pair<std::string_view, std::string_view> by_extension[] = {
    {"7z", "application/x-7z-compressed"},
    {"avif", "image/avif"},
    {"bmp", "image/bmp"},
    {"c", "text/x-c"},
    {"cc", "text/x-c++"},
    {"cfg", "text/plain"},
    {"cmake", "text/x-cmake"},
    {"conf", "text/plain"},
    {"cpp", "text/x-c++"},
    {"cs", "text/x-csharp"},
    {"css", "text/css"},
    {"csv", "text/csv"},
    {"cxx", "text/x-c++"},
    {"diff", "text/x-diff"},
    {"flac", "audio/flac"},
    {"gif", "image/gif"},
    {"go", "text/x-go"},
    {"gz", "application/gzip"},
    {"h", "text/x-c"},
    {"hpp", "text/x-c++"},
    {"htm", "text/html"},
    {"html", "text/html"},
    {"ico", "image/vnd.microsoft.icon"},
    {"ini", "text/plain"},
    {"java", "text/x-java"},
    {"jpeg", "image/jpeg"},
    {"jpg", "image/jpeg"},
    {"js", "text/javascript"},
    {"json", "application/json"},
    {"jsonl", "application/jsonl"},
    {"log", "text/plain"},
    {"md", "text/markdown"},
    {"mjs", "text/javascript"},
    {"mp3", "audio/mpeg"},
    {"mp4", "video/mp4"},
    {"ogg", "audio/ogg"},
    {"patch", "text/x-diff"},
    {"pdf", "application/pdf"},
    {"png", "image/png"},
    {"py", "text/x-python"},
    {"rb", "text/x-ruby"},
    {"rs", "text/x-rust"},
    {"rst", "text/x-rst"},
    {"sh", "application/x-sh"},
    {"sql", "application/sql"},
    {"svg", "image/svg+xml"},
    {"tar", "application/x-tar"},
    {"tiff", "image/tiff"},
    {"toml", "application/toml"},
    {"ts", "text/x-typescript"},
    {"tsv", "text/tab-separated-values"},
    {"txt", "text/plain"},
    {"wasm", "application/wasm"},
    {"wav", "audio/wav"},
    {"webm", "video/webm"},
    {"webp", "image/webp"},
    {"xhtml", "application/xhtml+xml"},
    {"xml", "application/xml"},
    {"yaml", "application/yaml"},
    {"yml", "application/yaml"},
    {"zip", "application/zip"},
    {"zst", "application/zstd"},
};
static_assert(std::is_sorted(std::begin(by_extension), std::end(by_extension)));

} // namespace

std::optional<std::string> mime_by_extension(const std::filesystem::path& name) {
    std::string ext = name.extension().string();
    if (ext.size() < 2) return std::nullopt;
    ext.erase(0, 1);
    for (char& c : ext)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    auto it = std::lower_bound(std::begin(by_extension), std::end(by_extension), ext,
                               [](const auto& entry, const std::string& e) { return entry.first < e; });
    if (it == std::end(by_extension) || it->first != ext) return std::nullopt;
    return std::string(it->second);
}

bool is_textual_mime(std::string_view mime) {
    if (mime.substr(0, 5) == "text/") return true;
    for (std::string_view suffix :
         {"+xml", "+json", "/json", "/jsonl", "/xml", "/yaml", "/toml", "/javascript", "/x-sh", "/sql"})
        if (mime.size() >= suffix.size() && mime.substr(mime.size() - suffix.size()) == suffix) return true;
    return false;
}

bool is_valid_utf8(std::string_view s) {
    std::size_t i = 0;
    const std::size_t n = s.size();
    while (i < n) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t len;
        std::uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF)
            len = 2, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF)
            len = 3, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4)
            len = 4, cp = c & 0x07;
        else
            return false; // continuation byte first, overlong lead (C0, C1) or beyond F4
        if (i + len > n) return false;
        for (std::size_t k = 1; k < len; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + k]);
            if ((cc & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (cc & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return false; // overlong
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += len;
    }
    return true;
}

content_type classify(const std::filesystem::path& name, std::string_view bytes) {
    const bool texty = bytes.find('\0') == std::string_view::npos && is_valid_utf8(bytes);
    if (auto mime = mime_by_extension(name)) return {*mime, texty && is_textual_mime(*mime)};
    return texty ? content_type{"text/plain", true} : content_type{"application/octet-stream", false};
}

} // namespace mcp::files
