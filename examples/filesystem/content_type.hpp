// What a file holds: a MIME type from its extension, and whether its bytes can travel as JSON
// text (valid UTF-8) or must be base64.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::files {

/// The MIME type for a file name's extension (case-insensitive), or nullopt if unknown.
std::optional<std::string> mime_by_extension(const std::filesystem::path& name);

/// Whether a MIME type names text (text/*, JSON, XML, YAML, JavaScript, SVG, shell, ...).
bool is_textual_mime(std::string_view mime);

/// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
bool is_valid_utf8(std::string_view bytes);

struct content_type {
    std::string mime;
    bool text = false; ///< send as text (else as a base64 blob)
};

/// The extension decides the MIME type; the bytes are sent as text when that type is textual
/// (or unknown) and they are valid UTF-8 without NUL bytes. Unknown extension and binary
/// bytes: application/octet-stream; unknown extension and text: text/plain.
content_type classify(const std::filesystem::path& name, std::string_view bytes);

} // namespace mcp::files
