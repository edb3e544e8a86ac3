// The audit log: JSON lines, appended atomically (see mcp/host/audit.hpp).
#include <mcp/host/audit.hpp>

#include "crypto/crypto.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <stdexcept>
#include <unistd.h>

namespace mcp::host {
namespace {

std::string iso8601_utc(std::chrono::system_clock::time_point t) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    const std::time_t secs = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    ::gmtime_r(&secs, &tm);
    char buf[96]; // room for any int the format could print
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
    return buf;
}

} // namespace

std::string sha256_hex(std::string_view data) {
    return mcp::detail::sha256_hex(data);
}

audit_log::audit_log(std::filesystem::path path, audit_options options)
    : path_(std::move(path)), options_(std::move(options)) {
    if (options_.redaction_key && options_.redaction_key->size() < min_audit_key_bytes)
        throw std::invalid_argument("the audit log's redaction key has " +
                                    std::to_string(options_.redaction_key->size()) +
                                    " bytes; it needs at least " + std::to_string(min_audit_key_bytes));
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd_ < 0)
        throw std::runtime_error("cannot open audit log " + path_.string() + ": " + std::strerror(errno));
}

audit_log::~audit_log() {
    if (fd_ >= 0) ::close(fd_);
}

std::string audit_log::format(const audit_record& r) const {
    json::object o;
    o["time"] = iso8601_utc(r.time);
    if (!r.principal.empty()) o["principal"] = r.principal;
    o["server"] = r.server;
    o["tool"] = r.tool;
    if (options_.redaction_key)
        o["argumentsDigest"] =
            "hmac-sha256:" + mcp::detail::to_hex(mcp::detail::hmac_sha256(*options_.redaction_key,
                                                                          to_json(json::value(r.arguments))));
    else
        o["arguments"] = r.arguments;
    if (!r.approval.empty()) o["approval"] = r.approval;
    o["durationMs"] = static_cast<double>(r.duration.count()) / 1000.0;
    o["outcome"] = r.outcome;
    if (!r.error.empty()) o["error"] = r.error;
    return to_json(json::value(std::move(o)));
}

void audit_log::append(const audit_record& r) {
    std::string line = format(r);
    line.push_back('\n');
    std::lock_guard lock(mu_);
    const char* p = line.data();
    std::size_t left = line.size();
    while (left > 0) {
        const auto n = ::write(fd_, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw std::runtime_error("cannot write audit log " + path_.string() + ": " +
                                     std::strerror(errno));
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

} // namespace mcp::host
