// The audit log: its lines, the principal, redaction with a keyed digest (checked against HMAC
// values computed elsewhere), and the key file: created once with mode 0600, shared by programs
// that create it at once, refused when others may read it.
#include <mcp/host/audit.hpp>

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

namespace {

using namespace mcp::host;
namespace fs = std::filesystem;

const std::string key16 = "0123456789abcdef";

struct host_audit : ::testing::Test {
    fs::path dir =
        fs::temp_directory_path() / ("mcpxx-audit-" + std::to_string(::getpid()) + "-" +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    void SetUp() override {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    static audit_record record() {
        return {.time = std::chrono::system_clock::time_point(std::chrono::milliseconds(1767225600123)),
                .server = "git",
                .tool = "commit",
                .arguments = {{"message", "secret"}},
                .approval = "user",
                .duration = std::chrono::microseconds(12500),
                .outcome = "ok"};
    }
    /// The lines of the log at `file`.
    static std::vector<std::string> lines_of(const fs::path& file) {
        std::ifstream in(file);
        std::vector<std::string> out;
        for (std::string l; std::getline(in, l);) out.push_back(l);
        return out;
    }
    static unsigned mode_of(const fs::path& p) {
        struct stat st {};
        EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
        return static_cast<unsigned>(st.st_mode) & 0777u;
    }
    static std::string slurp(const fs::path& p) {
        std::ifstream in(p);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
};

TEST_F(host_audit, sha256_of_known_vectors) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_F(host_audit, lines_with_and_without_a_principal) {
    const auto path = dir / "audit.jsonl";
    auto r = record();
    {
        audit_log log(path);
        log.append(r);
        r.principal = "alice";
        r.outcome = "failed";
        r.error = "boom";
        log.append(r);
    }
    const auto lines = lines_of(path);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(
        lines[0],
        R"({"time":"2026-01-01T00:00:00.123Z","server":"git","tool":"commit","arguments":{"message":"secret"},)"
        R"("approval":"user","durationMs":12.5,"outcome":"ok"})");
    EXPECT_EQ(lines[1],
              R"({"time":"2026-01-01T00:00:00.123Z","principal":"alice","server":"git","tool":"commit",)"
              R"("arguments":{"message":"secret"},"approval":"user","durationMs":12.5,"outcome":"failed",)"
              R"("error":"boom"})");
    EXPECT_EQ(mode_of(path), 0600u);
    EXPECT_THROW(audit_log("/nonexistent-dir/x.jsonl"), std::runtime_error);
}

TEST_F(host_audit, redaction_writes_an_hmac_that_depends_on_the_key) {
    // Expected values from Python: hmac.new(key, b'{"message":"secret"}', hashlib.sha256).
    const std::string under_key16 = "b2659559484bcf99978264323cefa316d3a343ba75dc2c12b7a9e9c17a3b882f";
    const std::string under_other = "6d1faccfa3871a062e42b2722db36780d8c43b8b3d38e358ce5c3207c8660dd4";
    auto r = record();
    audit_log one(dir / "a.jsonl", {.redaction_key = key16});
    const std::string line = one.format(r);
    EXPECT_EQ(line.find("secret"), std::string::npos) << line;
    EXPECT_EQ(line.find("\"arguments\""), std::string::npos) << line;
    EXPECT_NE(line.find(R"("argumentsDigest":"hmac-sha256:)" + under_key16 + "\""), std::string::npos)
        << line;
    // The same arguments give the same digest under one key, whatever else the record says.
    r.outcome = "error";
    r.principal = "bob";
    EXPECT_NE(one.format(r).find(under_key16), std::string::npos);
    // Other arguments, another digest.
    r.arguments = {{"message", "secreT"}};
    EXPECT_EQ(one.format(r).find(under_key16), std::string::npos);
    // Another key, another digest for the same arguments: without the key, a guess cannot be tested.
    r.arguments = {{"message", "secret"}};
    audit_log other(dir / "b.jsonl", {.redaction_key = "0123456789abcdeF"});
    EXPECT_NE(other.format(r).find(R"("argumentsDigest":"hmac-sha256:)" + under_other + "\""),
              std::string::npos);
    EXPECT_EQ(other.format(r).find(under_key16), std::string::npos);
}

TEST_F(host_audit, a_short_redaction_key_is_refused) {
    EXPECT_THROW(audit_log(dir / "a.jsonl", {.redaction_key = ""}), std::invalid_argument);
    EXPECT_THROW(audit_log(dir / "a.jsonl", {.redaction_key = key16.substr(1)}), std::invalid_argument);
    EXPECT_NO_THROW(audit_log(dir / "a.jsonl", {.redaction_key = key16}));
}

TEST_F(host_audit, the_key_file_is_created_once_with_mode_0600) {
    const auto file = dir / "config" / "mcpxx" / "audit-key";
    const auto key = load_or_create_audit_key(file);
    EXPECT_EQ(key.size(), 64u);
    EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos) << key;
    EXPECT_EQ(slurp(file), key + "\n");
    EXPECT_EQ(mode_of(file), 0600u);
    EXPECT_EQ(mode_of(dir / "config"), 0700u);
    EXPECT_EQ(mode_of(dir / "config" / "mcpxx"), 0700u);
    // Kept: the next program digests with the same key.
    EXPECT_EQ(load_or_create_audit_key(file), key);
    // No temporary file is left next to it.
    EXPECT_EQ(std::distance(fs::directory_iterator(file.parent_path()), fs::directory_iterator()), 1);
    // Another installation's key gives other digests.
    EXPECT_NE(load_or_create_audit_key(dir / "other-key"), key);
}

TEST_F(host_audit, programs_creating_the_key_at_once_get_the_same_one) {
    const auto file = dir / "audit-key";
    std::vector<std::future<std::string>> keys;
    for (int i = 0; i < 8; ++i)
        keys.push_back(std::async(std::launch::async, [&] { return load_or_create_audit_key(file); }));
    std::set<std::string> distinct;
    for (auto& k : keys) distinct.insert(k.get());
    EXPECT_EQ(distinct.size(), 1u);
    EXPECT_EQ(slurp(file), *distinct.begin() + "\n");
}

TEST_F(host_audit, a_key_written_by_a_person_is_used_as_it_is) {
    const auto file = dir / "audit-key";
    std::ofstream(file) << key16 << "\n";
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(load_or_create_audit_key(file), key16);
}

TEST_F(host_audit, a_key_file_that_cannot_be_a_secret_key_is_an_error_naming_it) {
    const auto file = dir / "audit-key";
    const auto message = [&] {
        try {
            load_or_create_audit_key(file);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    // Others may read it.
    std::ofstream(file) << key16;
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    EXPECT_EQ(message(), "the audit key " + file.string() +
                             " may be read or changed by other users; make it yours alone (chmod 600)");
    // Too short.
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    std::ofstream(file) << "short\n";
    EXPECT_EQ(message(), "the audit key " + file.string() + " has 5 bytes; a key needs at least 16");
    // Not a file: a FIFO is refused without waiting for a writer; a directory too.
    fs::remove(file);
    ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
    EXPECT_EQ(message(), "the audit key " + file.string() + " is not a regular file");
    fs::remove(file);
    fs::create_directories(file);
    EXPECT_EQ(message(), "the audit key " + file.string() + " is not a regular file");
    EXPECT_THROW(load_or_create_audit_key(""), std::runtime_error);
}

} // namespace
