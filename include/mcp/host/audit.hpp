// mcp/host/audit.hpp - an append-only record of every tool call, one JSON object per line:
//
//   {"time":"2026-05-01T10:00:00.123Z","principal":"alice","server":"git","tool":"commit",
//    "arguments":{...},"approval":"user","durationMs":12.5,"outcome":"ok"}
//
// outcome is "ok", "error" (the tool answered isError), "failed" (a protocol error, with
// "error": the message), "timeout", "cancelled" or "denied". "principal" (who asked for the
// call, e.g. a gateway's authenticated client) is there when it is known.
//
// With redaction the arguments are replaced by "argumentsDigest": "hmac-sha256:<hex>", the
// HMAC-SHA-256 of their compact JSON under a secret key. Two records of one log (one key) can
// still be compared, and someone who reads the log but not the key cannot test guesses: a plain
// digest of a short argument ("yes", a 4-digit PIN) is reversed by trying every value.
//
//   auto key = mcp::host::load_or_create_audit_key(dir / "audit-key");   // once per installation
//   mcp::host::audit_log log("calls.jsonl", {.redaction_key = key});
#pragma once

#include <mcp/json/json.hpp>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::host {

struct audit_record {
    std::chrono::system_clock::time_point time;
    std::string server;
    std::string tool;
    std::string principal; ///< who asked for the call; empty: not known (not written)
    json::object arguments;
    std::string approval;
    std::chrono::microseconds duration{0};
    std::string outcome;
    std::string error; ///< empty unless failed/timeout/cancelled/denied
};

/// The fewest bytes a redaction key may have (128 bits, if they are random).
inline constexpr std::size_t min_audit_key_bytes = 16;

struct audit_options {
    /// Set: every record's arguments are replaced by their keyed digest ("argumentsDigest").
    /// Any bytes, at least min_audit_key_bytes; keep it secret and keep it the same for records
    /// that are to be compared (load_or_create_audit_key keeps one in a file).
    std::optional<std::string> redaction_key;
};

class audit_log {
public:
    /// Opens (creates) the file for appending; throws std::runtime_error naming it on failure,
    /// std::invalid_argument for a redaction key shorter than min_audit_key_bytes.
    explicit audit_log(std::filesystem::path path, audit_options options = {});
    ~audit_log();
    audit_log(const audit_log&) = delete;
    audit_log& operator=(const audit_log&) = delete;

    /// Append one line. Each line is written with one write(2) on an O_APPEND descriptor, so
    /// lines of several processes sharing the file never interleave.
    void append(const audit_record& record);
    /// The line append() writes (without the newline).
    std::string format(const audit_record& record) const;
    const std::filesystem::path& path() const noexcept { return path_; }

private:
    std::filesystem::path path_;
    audit_options options_;
    int fd_ = -1;
    std::mutex mu_;
};

/// Lower-case hex SHA-256 of `data` (OpenSSL libcrypto).
std::string sha256_hex(std::string_view data);

/// The redaction key kept in `file`: its content, without a final line break, when it exists;
/// else a new key (64 hex digits: 256 random bits from the OS CSPRNG) written there with mode
/// 0600, in directories created with mode 0700. Of two programs creating it at once, both get
/// the one that was written first. Throws std::runtime_error naming the file when it cannot be
/// read or written, is not a regular file, is shorter than min_audit_key_bytes, or other users
/// may read or change it (a key others know protects nothing).
std::string load_or_create_audit_key(const std::filesystem::path& file);

} // namespace mcp::host
