// The audit log's redaction key, kept in a file of its own (see mcp/host/audit.hpp).
#include <mcp/host/audit.hpp>

#include "crypto/crypto.hpp"
#include "host/private_files.hpp"

#include <stdexcept>
#include <system_error>

#include <sys/stat.h>

namespace mcp::host {
namespace {

/// A key file is a line of text; anything much longer is not one.
constexpr std::size_t max_key_file_bytes = 4096;
constexpr std::size_t new_key_random_bytes = 32;

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& why) {
    throw std::runtime_error("the audit key " + file.string() + " " + why);
}

/// The key in `file`, or nullopt when there is none.
std::optional<std::string> read_key(const std::filesystem::path& file) {
    std::optional<detail::private_file_content> found;
    try {
        found = detail::read_private_file(file, max_key_file_bytes);
    } catch (const std::runtime_error& e) {
        fail(file, e.what());
    }
    if (!found) return std::nullopt;
    if ((found->mode & (S_IRWXG | S_IRWXO)) != 0)
        fail(file, "may be read or changed by other users; make it yours alone (chmod 600)");
    std::string key = std::move(found->bytes);
    // Written by a person, the file likely ends with a line break that is not part of the key.
    while (!key.empty() && (key.back() == '\n' || key.back() == '\r')) key.pop_back();
    if (key.size() < min_audit_key_bytes)
        fail(file, "has " + std::to_string(key.size()) + " bytes; a key needs at least " +
                       std::to_string(min_audit_key_bytes));
    return key;
}

} // namespace

std::string load_or_create_audit_key(const std::filesystem::path& file) {
    if (file.empty()) throw std::runtime_error("no file named for the audit key");
    if (auto key = read_key(file)) return *std::move(key);
    // Hex, so the file is a line a person can copy to another installation whose digests are to
    // match these.
    const std::string key = mcp::detail::to_hex(mcp::detail::random_bytes(new_key_random_bytes));
    try {
        if (detail::write_private_file(file, key + "\n", false)) return key;
    } catch (const std::filesystem::filesystem_error& e) {
        fail(file, "cannot be written: cannot create " + e.path1().string() + ": " + e.code().message());
    } catch (const std::system_error& e) {
        fail(file, "cannot be written: " + e.code().message());
    }
    // Another program created it first: use theirs.
    if (auto key_of_other = read_key(file)) return *std::move(key_of_other);
    fail(file, "disappeared while it was being created");
}

} // namespace mcp::host
