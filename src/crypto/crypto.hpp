// The few cryptographic primitives mcpxx needs, over OpenSSL's libcrypto: random bytes and ids
// from the OS CSPRNG (session ids, request-state keys, handles), HMAC-SHA256 (sealed request
// state) and SHA-256 digests (token lookup, redacted audit records). Internal: not installed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mcp::detail {

/// `n` random bytes from the OS CSPRNG; throws std::runtime_error if it fails.
std::string random_bytes(std::size_t n);
/// A 128-bit identifier from the OS CSPRNG as 32 lowercase hex digits (session ids).
std::string random_hex_id();
/// HMAC-SHA256 of `data` under `key`: 32 raw bytes.
std::string hmac_sha256(std::string_view key, std::string_view data);
/// SHA-256 of `data`: 32 raw bytes.
std::string sha256(std::string_view data);
/// Lowercase hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);
/// Lowercase hex of raw bytes.
std::string to_hex(std::string_view bytes);

} // namespace mcp::detail
