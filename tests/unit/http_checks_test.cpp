// The pieces of the Streamable HTTP server that decide on their own: Host/Origin validation, the
// stateless era's mirrored headers (-32020 cases of the spec's tables), Content-Type and Accept
// matching, request-target forms, SSE framing, and the bounded event store.
#include "http/authority.hpp"
#include "http/header_check.hpp"
#include "http/media_type.hpp"
#include "http/origin_check.hpp"
#include "http/refusal_budget.hpp"
#include "http/request_target.hpp"
#include "http/sse.hpp"

#include <mcp/http/event_store.hpp>

#include <gtest/gtest.h>

using mcp::http::detail::check_mirrored_headers;
using mcp::http::detail::decode_header_value;
using mcp::http::detail::origin_check;
using mcp::json::object;

namespace {

TEST(origin_check, loopback_defaults) {
    origin_check c({}, {}, true);
    EXPECT_FALSE(c.check("127.0.0.1:8080", std::nullopt));
    EXPECT_FALSE(c.check("localhost", std::nullopt));
    EXPECT_FALSE(c.check("[::1]:9", "http://localhost:3000"));
    EXPECT_FALSE(c.check("LOCALHOST:1", "https://127.0.0.1"));
    EXPECT_TRUE(c.check("evil.example.com", std::nullopt));
    EXPECT_TRUE(c.check(std::nullopt, std::nullopt));
    EXPECT_TRUE(c.check("localhost", "http://evil.example.com"));
    EXPECT_TRUE(c.check("localhost", "http://localhost.evil.com"));
    EXPECT_TRUE(c.check("localhost", "null"));
    EXPECT_TRUE(c.check("localhost", "file://localhost"));
}

TEST(origin_check, configured_and_disabled) {
    origin_check c({"mcp.example.com"}, {"https://app.example.com"}, false);
    EXPECT_FALSE(c.check("mcp.example.com:443", "https://app.example.com"));
    EXPECT_TRUE(c.check("localhost", std::nullopt)); // only what was configured
    EXPECT_TRUE(c.check("mcp.example.com", "https://other.example.com"));
    origin_check open({"*"}, {"*"}, false);
    EXPECT_FALSE(open.check("anything", "http://anything"));
    origin_check unbound({}, {}, false); // bound elsewhere, no names listed: Host is not checked
    EXPECT_FALSE(unbound.check("10.0.0.5:8080", std::nullopt));
}

// RFC 9110 7.2 Host values: uri-host [":" port].
TEST(host_header, parses_what_rfc_9110_allows) {
    using mcp::http::detail::parse_host;
    struct vector {
        const char* value;
        const char* host;
        const char* port;
        bool loopback;
    };
    for (const auto& v : std::vector<vector>{
             {"localhost", "localhost", "", true},
             {"LocalHost:8080", "LocalHost", "8080", true},
             {"localhost:", "localhost", "", true}, // RFC 3986: port = *DIGIT
             {"127.0.0.1:65535", "127.0.0.1", "65535", true},
             {"127.0.0.2", "127.0.0.2", "", true},
             {"[::1]", "[::1]", "", true},
             {"[::1]:9", "[::1]", "9", true},
             {"[0:0:0:0:0:0:0:1]:80", "[0:0:0:0:0:0:0:1]", "80", true},
             {"[2001:db8::7]", "[2001:db8::7]", "", false},
             {"[v1.fe80::a+en1]", "[v1.fe80::a+en1]", "", false},
             {"example.com:443", "example.com", "443", false},
             {"10.0.0.5:8080", "10.0.0.5", "8080", false},
             {"my-host_1.example~:1", "my-host_1.example~", "1", false},
             {"ex%41mple.com", "ex%41mple.com", "", false},
             {"localhost.evil.com", "localhost.evil.com", "", false},
             {"127.0.0.1.evil.com", "127.0.0.1.evil.com", "", false},
             {"10.1.2.3.nip.io:80", "10.1.2.3.nip.io", "80", false},
             {"127.1", "127.1", "", false}, // a name to RFC 3986 (not dotted-quad)
         }) {
        auto h = parse_host(v.value);
        ASSERT_TRUE(h) << v.value;
        EXPECT_EQ(h->host, v.host) << v.value;
        EXPECT_EQ(h->port, v.port) << v.value;
        EXPECT_EQ(h->loopback, v.loopback) << v.value;
    }
    for (const char* bad : {"",
                            "localhost:abc",
                            "localhost:@evil.example",
                            "user@localhost",
                            "user:pw@localhost:80",
                            "[::1]evil",
                            "[::1]:80x",
                            "[::1",
                            "::1",
                            "[::1]]",
                            "[localhost]",
                            "[::g]",
                            "localhost:80:80",
                            "localhost:65536",
                            "localhost:123456",
                            "localhost:-1",
                            "localhost: 80",
                            "local host",
                            "localhost/",
                            "localhost/path",
                            "localhost?x",
                            "localhost#x",
                            "local\"host",
                            "local<host>",
                            "localhost\\evil",
                            "ex%4mple.com",
                            "ex%zzmple.com",
                            ":80",
                            "\xc3\xa9xample.com"}) {
        EXPECT_FALSE(parse_host(bad)) << bad;
    }
}

// RFC 6454 7 serialized origins: scheme "://" host [":" port], or "null".
TEST(origin_header, parses_what_rfc_6454_allows) {
    using mcp::http::detail::parse_origin;
    for (const char* good :
         {"http://localhost", "https://127.0.0.1:8443", "HTTP://LOCALHOST:3000", "http://[::1]:9",
          "chrome-extension://abcdef", "vscode-webview://x.y", "null", "https://app.example.com"}) {
        EXPECT_TRUE(parse_origin(good)) << good;
    }
    EXPECT_EQ(parse_origin("HTTP://LOCALHOST:3000")->scheme, "http");
    EXPECT_TRUE(parse_origin("null")->opaque);
    for (const char* bad : {"",
                            "localhost",
                            "http://",
                            "http:/localhost",
                            "http:localhost",
                            "://localhost",
                            "1http://localhost",
                            "ht tp://localhost",
                            "http://localhost:80@evil.example",
                            "http://user@localhost",
                            "http://localhost@evil.example",
                            "http://localhost/",
                            "http://localhost/path",
                            "http://localhost?q",
                            "http://localhost#f",
                            "http://localhost:abc",
                            "http://localhost:99999",
                            "http://[::1]evil",
                            "http://localhost http://evil.example",
                            "http://localhost, http://evil.example",
                            "Null",
                            "null "}) {
        EXPECT_FALSE(parse_origin(bad)) << bad;
    }
}

TEST(origin_check, malformed_values_are_refused_with_a_clear_status) {
    origin_check c({}, {}, true);
    for (const char* host : {"localhost:abc", "localhost:@evil.example", "[::1]evil", "127.0.0.1:99999"}) {
        auto r = c.check(host, std::nullopt);
        ASSERT_TRUE(r) << host;
        EXPECT_EQ(r->status, 400) << host;
        EXPECT_NE(r->message.find("malformed"), std::string::npos) << r->message;
    }
    for (const char* origin : {"http://localhost:80@evil.example", "http://localhost/", "http://[::1]evil"}) {
        auto r = c.check("localhost", origin);
        ASSERT_TRUE(r) << origin;
        EXPECT_EQ(r->status, 403) << origin;
        EXPECT_NE(r->message.find("malformed"), std::string::npos) << r->message;
    }
    // Even where names are not checked, a malformed value is not taken.
    origin_check open({"*"}, {"*"}, false);
    EXPECT_EQ(open.check("localhost:@evil.example", std::nullopt)->status, 400);
    EXPECT_EQ(open.check("localhost", "http://a:1@b")->status, 403);
    EXPECT_FALSE(open.check("anything:1", "http://anything"));
    // Loopback in any notation is loopback; a name that merely starts like one is not.
    EXPECT_FALSE(c.check("[0:0::1]:80", "http://127.0.0.9:3000"));
    EXPECT_EQ(c.check("localhost.evil.com", std::nullopt)->status, 403);
}

// Refused authentications per address: a burst, then 429 until refilled; one line when an
// address goes over, then one summary per interval instead of a line per request.
TEST(refusal_budget, spends_refills_and_summarises) {
    using namespace std::chrono_literals;
    std::vector<std::string> lines;
    mcp::http::detail::refusal_budget b(
        1, 3, [&](std::string_view l) { lines.emplace_back(l); }, 10s);
    const auto t = mcp::http::detail::refusal_budget::clock::now();
    EXPECT_FALSE(b.over_budget("10.0.0.1", t));
    for (int i = 0; i < 3; ++i) b.charge("10.0.0.1", t);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("10.0.0.1: too many refused authentications"), std::string::npos) << lines[0];
    EXPECT_EQ(b.over_budget("10.0.0.1", t), 1);
    EXPECT_FALSE(b.over_budget("10.0.0.2", t)); // another address is not held back
    for (int i = 0; i < 1000; ++i)
        EXPECT_TRUE(b.over_budget("10.0.0.1", t + std::chrono::microseconds(i * 500)));
    EXPECT_EQ(lines.size(), 1u); // no line per refusal
    // A second later one refusal more may pass, and is charged: over again, not news again.
    EXPECT_FALSE(b.over_budget("10.0.0.1", t + 1s));
    b.charge("10.0.0.1", t + 1s);
    EXPECT_TRUE(b.over_budget("10.0.0.1", t + 1s));
    EXPECT_EQ(lines.size(), 1u);
    // After the interval: the summary, once.
    EXPECT_FALSE(b.over_budget("10.0.0.1", t + 12s));
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_NE(lines[1].find("1002 more requests from 10.0.0.1 refused 429"), std::string::npos) << lines[1];
    EXPECT_NE(lines[1].find("in the last 12 s"), std::string::npos) << lines[1];
    // Full buckets with nothing to report are forgotten.
    b.charge("10.0.0.3", t + 30s);
    EXPECT_EQ(b.tracked(), 1u);
}

// A credential that authenticated is heard even from an address over budget (clients share
// 127.0.0.1 or a proxy's address), until it is refused; the trusted set is bounded (LRU).
TEST(refusal_budget, trusts_recently_authenticated_credentials) {
    mcp::http::detail::refusal_budget b(0.001, 1, {});
    EXPECT_FALSE(b.trusted("Bearer good"));
    b.authenticated("Bearer good");
    EXPECT_TRUE(b.trusted("Bearer good"));
    EXPECT_FALSE(b.trusted("Bearer goo"));
    b.distrust("Bearer good");
    EXPECT_FALSE(b.trusted("Bearer good"));
    b.authenticated("Bearer first");
    for (int i = 0; i < 1023; ++i) b.authenticated("Bearer " + std::to_string(i));
    b.authenticated("Bearer first"); // used again: the most recent now
    b.authenticated("Bearer one-more");
    EXPECT_TRUE(b.trusted("Bearer first"));
    EXPECT_FALSE(b.trusted("Bearer 0")); // the least recently used went
    EXPECT_TRUE(b.trusted("Bearer 1"));
}

TEST(refusal_budget, keys_ipv6_by_its_64_prefix) {
    using mcp::http::detail::address_key;
    EXPECT_EQ(address_key("10.1.2.3"), "10.1.2.3");
    EXPECT_EQ(address_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
    EXPECT_EQ(address_key("2001:db8:1:2::7"), "2001:db8:1:2::/64");
    EXPECT_EQ(address_key("::ffff:10.1.2.3"), "::ffff:10.1.2.3");
    mcp::http::detail::refusal_budget b(0.001, 2, {});
    const auto t = mcp::http::detail::refusal_budget::clock::now();
    b.charge("2001:db8::1", t);
    b.charge("2001:db8::2", t); // the same host, another address of its /64
    EXPECT_TRUE(b.over_budget("2001:db8::3", t));
    EXPECT_FALSE(b.over_budget("2001:db8:0:1::3", t));
}

// A full table does not let new addresses through: they share one bucket. And however many
// addresses go over, the log gets a bounded number of lines, then one saying how many it missed.
TEST(refusal_budget, a_full_table_charges_an_overflow_bucket_and_the_log_is_capped) {
    using namespace std::chrono_literals;
    std::vector<std::string> lines;
    mcp::http::detail::refusal_budget b(
        0.001, 1, [&](std::string_view l) { lines.emplace_back(l); }, 10s);
    const auto t = mcp::http::detail::refusal_budget::clock::now();
    for (int i = 0; i < 100000; ++i) b.charge("10." + std::to_string(i >> 16) + "." +
                                                  std::to_string((i >> 8) & 255) + "." + std::to_string(i & 255),
                                              t);
    EXPECT_EQ(lines.size(), 100u); // a line for each address going over, but capped
    EXPECT_FALSE(b.over_budget("192.168.0.1", t)); // untracked, and the overflow bucket is full
    b.charge("192.168.0.1", t);                     // charged to the shared bucket
    EXPECT_TRUE(b.over_budget("192.168.0.2", t));   // so another untracked address waits too
    EXPECT_EQ(lines.size(), 100u);
    EXPECT_TRUE(b.over_budget("10.0.0.1", t + 11s));
    ASSERT_GE(lines.size(), 101u);
    EXPECT_NE(lines[100].find("99901 more lines about refused authentications left out"), std::string::npos)
        << lines[100];
}

TEST(header_values, decoding) {
    EXPECT_EQ(decode_header_value("us-west1"), "us-west1");
    EXPECT_EQ(decode_header_value("  padded\t"), "padded");
    EXPECT_EQ(decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, 世界");
    EXPECT_EQ(decode_header_value("=?base64?IHBhZGRlZCA=?="), " padded ");
    EXPECT_EQ(decode_header_value("=?base64?bGluZTEKbGluZTI=?="), "line1\nline2");
    EXPECT_FALSE(decode_header_value("=?base64?SGVsbG8?="));                  // bad padding
    EXPECT_FALSE(decode_header_value("=?base64?SGVs!!!bG8=?="));              // not the alphabet
    EXPECT_EQ(decode_header_value("=?base64?SGVsbG8="), "=?base64?SGVsbG8="); // no suffix: literal
    EXPECT_FALSE(decode_header_value("caf\xc3\xa9"));                         // raw non-ASCII
}

mcp::http::core::request request_with(std::vector<std::pair<std::string, std::string>> headers) {
    mcp::http::core::request r;
    r.method = "POST";
    r.headers = std::move(headers);
    return r;
}

const object call_message{
    {"method", "tools/call"},
    {"params",
     {{"name", "execute_sql"}, {"arguments", {{"region", "us-west1"}, {"limit", 42}, {"dry", true}}}}}};

auto lookup = [](const std::string& name) {
    auto params = std::make_shared<std::vector<mcp::detail::header_parameter>>();
    if (name == "execute_sql")
        *params = mcp::detail::read_header_annotations(
                      object{{"type", "object"},
                             {"properties",
                              {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                               {"limit", {{"type", "integer"}, {"x-mcp-header", "Limit"}}},
                               {"dry", {{"type", "boolean"}, {"x-mcp-header", "Dry"}}},
                               {"note", {{"type", "string"}, {"x-mcp-header", "Note"}}}}}})
                      .params;
    return std::shared_ptr<const std::vector<mcp::detail::header_parameter>>(params);
};

std::vector<std::pair<std::string, std::string>> good_headers() {
    return {{"MCP-Protocol-Version", "2026-07-28"}, {"mcp-method", "tools/call"}, {"Mcp-Name", "execute_sql"},
            {"Mcp-Param-Region", "us-west1"},       {"MCP-PARAM-LIMIT", "42.0"},  {"Mcp-Param-Dry", "true"}};
}

TEST(mirrored_headers, agreeing_headers_pass) {
    EXPECT_FALSE(check_mirrored_headers(request_with(good_headers()), call_message, "2026-07-28", lookup));
}

TEST(mirrored_headers, each_disagreement_is_named) {
    auto without = [](std::string name) {
        auto h = good_headers();
        std::erase_if(h, [&](const auto& kv) { return mcp::http::core::iequals(kv.first, name); });
        return h;
    };
    auto with = [](std::string name, std::string value) {
        auto h = good_headers();
        for (auto& kv : h)
            if (mcp::http::core::iequals(kv.first, name)) kv.second = value;
        return h;
    };
    auto check = [&](std::vector<std::pair<std::string, std::string>> h) {
        auto r = check_mirrored_headers(request_with(std::move(h)), call_message, "2026-07-28", lookup);
        return r.value_or("");
    };
    EXPECT_NE(check(without("MCP-Protocol-Version")).find("MCP-Protocol-Version"), std::string::npos);
    EXPECT_NE(check(with("MCP-Protocol-Version", "2025-11-25")).find("does not match"), std::string::npos);
    EXPECT_NE(check(without("Mcp-Method")).find("Mcp-Method"), std::string::npos);
    EXPECT_NE(check(with("Mcp-Method", "TOOLS/CALL")).find("Mcp-Method"),
              std::string::npos); // values are case-sensitive
    EXPECT_NE(check(without("Mcp-Name")).find("Mcp-Name"), std::string::npos);
    EXPECT_NE(check(with("Mcp-Name", "other")).find("Mcp-Name"), std::string::npos);
    EXPECT_NE(check(without("Mcp-Param-Region")).find("Mcp-Param-Region"), std::string::npos);
    EXPECT_NE(check(with("Mcp-Param-Limit", "41")).find("Mcp-Param-Limit"), std::string::npos);
    EXPECT_NE(check(with("Mcp-Param-Dry", "TRUE")).find("Mcp-Param-Dry"), std::string::npos);
    EXPECT_NE(check(with("Mcp-Param-Region", "=?base64?SGVsbG8?=")).find("malformed"), std::string::npos);
    EXPECT_EQ(check(with("Mcp-Param-Region", "=?base64?dXMtd2VzdDE=?=")), ""); // base64 of the same value
    EXPECT_EQ(check(with("Mcp-Name", "  execute_sql  ")), ""); // surrounding spaces are not the value
}

TEST(mirrored_headers, numbers_compare_exactly_and_absent_arguments_take_no_header) {
    auto check = [&](const object& arguments, std::vector<std::pair<std::string, std::string>> params) {
        std::vector<std::pair<std::string, std::string>> h{{"MCP-Protocol-Version", "2026-07-28"},
                                                           {"Mcp-Method", "tools/call"},
                                                           {"Mcp-Name", "execute_sql"}};
        for (auto& p : params) h.push_back(std::move(p));
        const object message{{"method", "tools/call"},
                             {"params", {{"name", "execute_sql"}, {"arguments", arguments}}}};
        return check_mirrored_headers(request_with(std::move(h)), message, "2026-07-28", lookup).value_or("");
    };
    const auto limit = [](mcp::json::value v) { return object{{"limit", std::move(v)}}; };
    EXPECT_EQ(check(limit(std::int64_t{9007199254740992}), {{"Mcp-Param-Limit", "9007199254740992"}}), "");
    EXPECT_NE(check(limit(std::int64_t{9007199254740992}), {{"Mcp-Param-Limit", "9007199254740993"}}), "");
    EXPECT_NE(
        check(limit(std::uint64_t{18446744073709551615u}), {{"Mcp-Param-Limit", "18446744073709551614"}}),
        "");
    EXPECT_EQ(
        check(limit(std::uint64_t{18446744073709551615u}), {{"Mcp-Param-Limit", "18446744073709551615.0"}}),
        "");
    EXPECT_EQ(check(limit(42), {{"Mcp-Param-Limit", "0042.000"}}), "");
    EXPECT_EQ(check(limit(42), {{"Mcp-Param-Limit", "420e-1"}}), "");
    EXPECT_EQ(check(limit(1e20), {{"Mcp-Param-Limit", "100000000000000000000"}}), "");
    EXPECT_NE(check(limit(9007199254740992.0), {{"Mcp-Param-Limit", "9007199254740993"}}), "");
    EXPECT_EQ(check(limit(0.1), {{"Mcp-Param-Limit", "0.10"}}), "");
    EXPECT_NE(check(limit(42), {{"Mcp-Param-Limit", "42."}}), "");
    EXPECT_NE(check(limit(42), {{"Mcp-Param-Limit", ""}}), "");
    // A header for an argument the body does not have (or has as null) says what the body does not.
    EXPECT_NE(check(object{}, {{"Mcp-Param-Region", "eu"}}).find("not in the body"), std::string::npos);
    EXPECT_NE(check(object{{"region", nullptr}}, {{"Mcp-Param-Region", "eu"}}).find("not in the body"),
              std::string::npos);
    EXPECT_EQ(check(object{{"region", nullptr}}, {}), "");
    // Sent twice: named as such, whatever the values.
    EXPECT_NE(check(object{{"region", "eu"}}, {{"Mcp-Param-Region", "eu"}, {"mcp-param-region", "eu"}})
                  .find("repeated"),
              std::string::npos);
}

TEST(media_type, content_type_is_one_media_type) {
    using mcp::http::detail::is_media_type;
    EXPECT_TRUE(is_media_type("application/json", "application/json"));
    EXPECT_TRUE(is_media_type("Application/JSON; charset=utf-8", "application/json"));
    EXPECT_TRUE(is_media_type(" application/json ;charset=\"utf-8\"", "application/json"));
    EXPECT_FALSE(is_media_type("*/*", "application/json"));
    EXPECT_FALSE(is_media_type("application/*", "application/json"));
    EXPECT_FALSE(is_media_type("application/json, text/plain", "application/json"));
    EXPECT_FALSE(is_media_type("application / json", "application/json"));
    EXPECT_FALSE(is_media_type("application/jsonx", "application/json"));
    EXPECT_FALSE(is_media_type("", "application/json"));
}

TEST(media_type, accept_weights_and_specificity) {
    using mcp::http::detail::accepts;
    EXPECT_TRUE(accepts("application/json, text/event-stream", "text/event-stream"));
    EXPECT_TRUE(accepts("*/*", "application/json"));
    EXPECT_TRUE(accepts("application/*;q=0.1", "application/json"));
    EXPECT_FALSE(accepts("application/json;q=0", "application/json"));
    EXPECT_FALSE(accepts("application/json; q=0.0", "application/json"));
    EXPECT_FALSE(accepts("*/*, application/json;q=0", "application/json"));
    EXPECT_TRUE(accepts("*/*;q=0, application/json", "application/json"));
    EXPECT_FALSE(accepts("application/*;q=0, */*", "application/json"));
    EXPECT_TRUE(accepts("application/json;q=0, application/json", "application/json"));
    EXPECT_FALSE(accepts("text/html", "application/json"));
    EXPECT_FALSE(accepts("application/json;q=1.5", "application/json")); // malformed weight
    EXPECT_FALSE(accepts("*/json", "application/json"));
    EXPECT_TRUE(accepts("text/plain;note=\"a,b\", application/json", "application/json"));
    EXPECT_TRUE(accepts(",, application/json ,", "application/json"));
    EXPECT_FALSE(accepts("", "application/json"));
}

TEST(request_target, forms) {
    using mcp::http::detail::read_request_target;
    auto origin = read_request_target("/mcp?x=1");
    EXPECT_EQ(origin.origin_form, "/mcp?x=1");
    EXPECT_FALSE(origin.authority);
    EXPECT_FALSE(origin.error);
    auto absolute = read_request_target("http://127.0.0.1:8080/mcp?x=1");
    EXPECT_EQ(absolute.origin_form, "/mcp?x=1");
    EXPECT_EQ(absolute.authority, "127.0.0.1:8080");
    EXPECT_FALSE(absolute.error);
    EXPECT_EQ(read_request_target("HTTPS://[::1]:9").origin_form, "/");
    EXPECT_EQ(read_request_target("HTTPS://[::1]:9").authority, "[::1]:9");
    EXPECT_EQ(read_request_target("http://localhost?a").origin_form, "/?a");
    for (const char* bad : {"ftp://h/mcp", "http://u:p@h/mcp", "http:///mcp", "http://:80/mcp", "http:/mcp",
                            "http://h/mcp#frag"})
        EXPECT_TRUE(read_request_target(bad).error) << bad;
    EXPECT_EQ(read_request_target("*").origin_form, "*");
}

TEST(sse, framing) {
    using namespace mcp::http::detail;
    EXPECT_EQ(sse_event("3-1", R"({"a":1})"), "id: 3-1\nevent: message\ndata: {\"a\":1}\n\n");
    EXPECT_EQ(sse_event("", "x\ny"), "event: message\ndata: x\ndata: y\n\n"); // no field injection
    EXPECT_EQ(sse_event("", "a\r\nid: evil"), "event: message\ndata: a\ndata: id: evil\n\n");
    EXPECT_EQ(sse_priming("1-0", std::chrono::milliseconds(1500)), "id: 1-0\nretry: 1500\ndata: \n\n");
    EXPECT_EQ(sse_comment("keep-alive"), ": keep-alive\n\n");
}

TEST(memory_event_store, replays_one_stream_after_an_id) {
    mcp::http::memory_event_store store;
    store.append("s", "1", {"1-0", ""});
    store.append("s", "1", {"1-1", "a"});
    store.append("s", "2", {"2-1", "other stream"});
    store.append("s", "1", {"1-2", "b"});
    auto r = store.replay_after("s", "1-0");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->stream, "1");
    ASSERT_EQ(r->events.size(), 2u);
    EXPECT_EQ(r->events[0].data, "a");
    EXPECT_EQ(r->events[1].id, "1-2");
    EXPECT_FALSE(store.replay_after("s", "9-9"));
    EXPECT_FALSE(store.replay_after("other", "1-0"));
    store.forget_session("s");
    EXPECT_EQ(store.bytes(), 0u);
}

TEST(memory_event_store, stays_within_its_bounds) {
    mcp::http::memory_event_store store(1000, 3000);
    const std::string payload(100, 'x');
    for (int i = 0; i < 100; ++i) store.append("a", "1", {"1-" + std::to_string(i), payload});
    EXPECT_LE(store.bytes(), 1000u + 200u);
    EXPECT_FALSE(store.replay_after("a", "1-0")); // evicted
    EXPECT_TRUE(store.replay_after("a", "1-98"));
    for (int s = 0; s < 10; ++s)
        for (int i = 0; i < 20; ++i)
            store.append("s" + std::to_string(s), "1", {"1-" + std::to_string(i), payload});
    EXPECT_LE(store.bytes(), 3000u + 200u);
}

} // namespace
