// file:// URIs (RFC 8089) <-> absolute local paths.
//
// One spelling per path: every byte outside RFC 3986 "unreserved" and '/' is percent-encoded
// (upper-case hex), so the URI the server lists is the URI a client sends back, and
// notifications/resources/updated names a file exactly as the client subscribed to it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::files {

/// "file:///abs/a%20b.txt" for the absolute path "/abs/a b.txt".
std::string file_uri(const std::filesystem::path& absolute);

/// The absolute path a file URI names, percent-decoded. Accepts "file:///p", "file:/p" and
/// "file://localhost/p". nullopt for anything else: another scheme or host, a query or
/// fragment, a malformed escape, or an encoded NUL byte. The result is not normalised: ".."
/// is left for path_guard to judge.
std::optional<std::filesystem::path> path_of_file_uri(std::string_view uri);

} // namespace mcp::files
