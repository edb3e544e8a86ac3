// mcp/host/audit.hpp - an append-only record of every tool call, one JSON object per line:
//
//   {"time":"2026-05-01T10:00:00.123Z","server":"git","tool":"commit","arguments":{...},
//    "approval":"user","durationMs":12.5,"outcome":"ok"}
//
// outcome is "ok", "error" (the tool answered isError), "failed" (a protocol error, with
// "error": the message), "timeout", "cancelled" or "denied". With redaction the arguments are
// replaced by "argumentsSha256": the SHA-256 of their compact JSON, which still lets two records
// be compared without keeping secrets in the log.
#pragma once

#include <mcp/json/json.hpp>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>

namespace mcp::host {

struct audit_record {
    std::chrono::system_clock::time_point time;
    std::string server;
    std::string tool;
    json::object arguments;
    std::string approval;
    std::chrono::microseconds duration{0};
    std::string outcome;
    std::string error; ///< empty unless failed/timeout/cancelled/denied
};

struct audit_options {
    bool redact_arguments = false;
};

class audit_log {
public:
    /// Opens (creates) the file for appending; throws std::runtime_error naming it on failure.
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

} // namespace mcp::host
