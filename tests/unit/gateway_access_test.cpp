// The pieces of `mcpxx gateway` that decide who gets in (compiled in from apps/mcpxx): token
// files in both formats with their errors, the tokens variable, tool patterns.
#include "gateway_access.hpp"
#include "read_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

using mcpxx_cli::gateway_tokens;
using mcpxx_cli::glob_match;
using mcpxx_cli::input_error;
namespace fs = std::filesystem;

struct token_files : ::testing::Test {
    fs::path dir = fs::temp_directory_path() / ("mcpxx-gateway-access-" + std::to_string(::getpid()));
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
    std::string write(const char* name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    }
    static std::string load_error(const std::string& path) {
        try {
            gateway_tokens t;
            t.load_file(path);
        } catch (const input_error& e) {
            return e.what();
        }
        return "(no error)";
    }
};

TEST_F(token_files, TextLinesWithOptionalNames) {
    gateway_tokens t;
    t.load_file(write("t.txt", "# tokens\nfirst-token-1234  alice\n\n  second-token-5678\n"));
    EXPECT_EQ(t.size(), 2u);
    EXPECT_EQ(t.bearer().principal_of("Bearer first-token-1234").value_or(""), "alice");
    const auto anonymous = t.bearer().principal_of("Bearer second-token-5678").value_or("");
    EXPECT_EQ(anonymous.rfind("token-", 0), 0u);
    EXPECT_EQ(anonymous.size(), 14u); // token- + 8 hex digits of its SHA-256, never the token
    EXPECT_TRUE(t.principals().count("alice"));
}

TEST_F(token_files, JsonWithRatesAndToolPatterns) {
    gateway_tokens t;
    t.load_file(write("t.json", R"({"tokens": [
        {"token": "ci-token-000000", "name": "ci", "rate": 5, "burst": 10, "tools": ["git__*"]},
        {"token": "ci-token-111111", "name": "ci", "rate": 5, "burst": 10, "tools": ["git__*"]}]})"));
    EXPECT_EQ(t.size(), 2u); // two tokens, one principal
    ASSERT_EQ(t.principals().size(), 1u);
    const auto& ci = t.principals().at("ci");
    EXPECT_EQ(ci.rate.value_or(0), 5);
    EXPECT_EQ(ci.burst.value_or(0), 10);
    EXPECT_EQ(ci.tools, std::vector<std::string>{"git__*"});
    EXPECT_TRUE(ci.resources.empty());
    t.load_file(write("r.json", R"({"tokens": [
        {"token": "docs-token-00000", "name": "docs", "resources": ["mcpxx://docs/*"]}]})"));
    EXPECT_EQ(t.principals().at("docs").resources, std::vector<std::string>{"mcpxx://docs/*"});
    EXPECT_THROW(
        t.load_file(write("bad.json", R"({"tokens": [{"token": "docs-token-11111", "resources": "x"}]})")),
        mcpxx_cli::input_error);
}

TEST_F(token_files, ProblemsNameTheFileAndTheEntry) {
    EXPECT_NE(load_error(write("a.json", R"({"tokens": [{"token": "long-enough-token", "nmae": "x"}]})"))
                  .find("tokens[0]: unknown field \"nmae\""),
              std::string::npos);
    EXPECT_NE(load_error(write("b.json", R"({"tokens": [{"name": "x"}]})"))
                  .find("\"token\" (a string) is required"),
              std::string::npos);
    EXPECT_NE(load_error(write("c.json", R"({"tokens": [{"token": "long-enough-token", "rate": "fast"}]})"))
                  .find("\"rate\" must be a number"),
              std::string::npos);
    EXPECT_NE(
        load_error(write("d.json", R"({"tokens": [{"token": "long-enough-token", "name": "x", "rate": 1},
                                                       {"token": "another-long-token", "name": "x", "rate": 2}]})"))
            .find("tokens[1]: \"x\" was given other settings before"),
        std::string::npos);
    EXPECT_NE(
        load_error(write("e.txt", "ok-token-123456\nshort\n")).find("e.txt:2: a bearer token must have"),
        std::string::npos);
    EXPECT_NE(load_error(write("f.json", R"({"tokens": [)")).find("f.json"), std::string::npos);
    EXPECT_NE(load_error((dir / "missing").string()).find("missing"), std::string::npos);
}

TEST(gateway_tokens_list, CommasSpacesAndNewlines) {
    gateway_tokens t;
    t.load_list("aaaaaaaa1,bbbbbbbb2  cccccccc3\n", "MCPXX_GATEWAY_TOKENS");
    EXPECT_EQ(t.size(), 3u);
    EXPECT_TRUE(t.bearer().principal_of("Bearer cccccccc3"));
    EXPECT_THROW(t.load_list("aaaaaaaa1", "MCPXX_GATEWAY_TOKENS"), input_error); // twice
}

TEST(glob, StarsMatchAnyRun) {
    EXPECT_TRUE(glob_match("git__*", "git__status"));
    EXPECT_TRUE(glob_match("*", ""));
    EXPECT_TRUE(glob_match("*__read*", "files__read_file"));
    EXPECT_TRUE(glob_match("a*b*c", "aXXbYYc"));
    EXPECT_FALSE(glob_match("git__*", "gitlab__x"));
    EXPECT_FALSE(glob_match("a*b*c", "aXXbYY"));
    EXPECT_FALSE(glob_match("exact", "exactly"));
    EXPECT_TRUE(glob_match("exact", "exact"));
}

} // namespace

TEST(glob, AdmitsAPrefix) {
    using mcpxx_cli::glob_admits_prefix;
    EXPECT_TRUE(glob_admits_prefix("weather__*", "weather__"));
    EXPECT_TRUE(glob_admits_prefix("weather__now", "weather__"));
    EXPECT_TRUE(glob_admits_prefix("*", "weather__"));
    EXPECT_TRUE(glob_admits_prefix("*__read*", "files__"));
    EXPECT_TRUE(glob_admits_prefix("w*r__x", "weather__"));
    EXPECT_TRUE(glob_admits_prefix("weath*", "weather__"));
    EXPECT_FALSE(glob_admits_prefix("news__*", "weather__"));
    EXPECT_FALSE(glob_admits_prefix("weather_", "weather__"));
    EXPECT_FALSE(glob_admits_prefix("", "weather__"));
    EXPECT_TRUE(glob_admits_prefix("", ""));
}
