#include <mcp/json/base64.hpp>
#include <mcp/json/json.hpp>
#include <mcp/json/text.hpp>
#include <mcp/json/utf8.hpp>

#include <gtest/gtest.h>

TEST(json, doubles_are_shortest_round_trip) {
    EXPECT_EQ(mcp::to_json(mcp::json::value(2500.5)), "2500.5");
    EXPECT_EQ(mcp::to_json(mcp::json::value(0.1)), "0.1");
    EXPECT_EQ(mcp::to_json(mcp::json::value(3.0)), "3.0");
    EXPECT_EQ(mcp::to_json(mcp::json::value(-0.0)), "-0.0");
    EXPECT_EQ(mcp::to_json(mcp::json::value(1e300)), "1e+300");
    EXPECT_EQ(mcp::to_json(mcp::json::value(std::numeric_limits<double>::infinity())), "null");
    for (double d : {0.1, 1.0 / 3, 1e-7, 123456789.125, 5e-324}) {
        auto back = mcp::json::parse(mcp::to_json(mcp::json::value(d)));
        EXPECT_EQ(back.as_double(), d);
    }
}

TEST(json, strings_are_escaped) {
    EXPECT_EQ(mcp::to_json(mcp::json::value("a\"b\\c\n\x01\xc3\xa9")), "\"a\\\"b\\\\c\\n\\u0001\xc3\xa9\"");
}

TEST(json, integers_and_containers) {
    auto v = mcp::json::parse(R"({"a":[1,-2,18446744073709551615,true,null],"b":{}})");
    EXPECT_EQ(mcp::to_json(v), R"({"a":[1,-2,18446744073709551615,true,null],"b":{}})");
}

TEST(json, parse_rejects_invalid_utf8_and_deep_nesting) {
    boost::system::error_code ec;
    EXPECT_FALSE(mcp::parse_json("\"\xff\"", ec));
    EXPECT_FALSE(mcp::parse_json(std::string(10000, '[') + std::string(10000, ']'), ec));
    EXPECT_TRUE(mcp::parse_json(R"({"x":1})", ec));
}

TEST(json, find_helpers) {
    auto v = mcp::json::parse(R"({"s":"x","i":3,"d":2.0,"f":2.5,"b":true,"o":{},"a":[]})").as_object();
    EXPECT_EQ(*mcp::find_string(v, "s"), "x");
    EXPECT_FALSE(mcp::find_string(v, "i"));
    EXPECT_EQ(*mcp::find_int(v, "i"), 3);
    EXPECT_EQ(*mcp::find_int(v, "d"), 2);
    EXPECT_FALSE(mcp::find_int(v, "f"));
    EXPECT_EQ(*mcp::find_number(v, "i"), 3.0);
    EXPECT_TRUE(*mcp::find_bool(v, "b"));
    EXPECT_TRUE(mcp::find_object(v, "o"));
    EXPECT_TRUE(mcp::find_array(v, "a"));
    EXPECT_FALSE(mcp::find_member(v, "zz"));
}

TEST(base64, round_trips_and_rejects_malformed) {
    EXPECT_EQ(mcp::base64::encode(""), "");
    EXPECT_EQ(mcp::base64::encode("f"), "Zg==");
    EXPECT_EQ(mcp::base64::encode("fo"), "Zm8=");
    EXPECT_EQ(mcp::base64::encode("foo"), "Zm9v");
    EXPECT_EQ(mcp::base64::encode("foobar"), "Zm9vYmFy");
    std::string all;
    for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
    EXPECT_EQ(*mcp::base64::decode(mcp::base64::encode(all)), all);
    for (const char* bad : {"Zg=", "Z===", "Zg==Zg==", "Zh==", "Zm9v!", "Zm 9v", "=Zm9"})
        EXPECT_FALSE(mcp::base64::decode(bad)) << bad;
    EXPECT_TRUE(mcp::base64::is_valid("Zm9vYmFy"));
}

TEST(text, utf8_prefix_repairs_and_cuts_at_a_character) {
    EXPECT_EQ(mcp::utf8_prefix("abc", 2), "ab");
    EXPECT_EQ(mcp::utf8_prefix("\xE4\xB8\x96\xE7\x95\x8C", 4), "\xE4\xB8\x96"); // cut before a character
    EXPECT_EQ(mcp::utf8_prefix("a\xFF"
                               "b",
                               10),
              "a\xEF\xBF\xBD"
              "b");
    EXPECT_EQ(mcp::utf8_prefix("\xC0\xAF", 10), "\xEF\xBF\xBD\xEF\xBF\xBD");                 // overlong
    EXPECT_EQ(mcp::utf8_prefix("\xED\xA0\x80", 10), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); // surrogate
}

TEST(utf8, decode_is_strict_and_boundaries_never_split_a_code_point) {
    using mcp::utf8::decode;
    const std::string_view euro = "\xE2\x82\xAC", emoji = "\xF0\x9F\x98\x80";
    EXPECT_EQ(decode(euro, 0).code_point, U'\u20AC');
    EXPECT_EQ(decode(euro, 0).length, 3u);
    EXPECT_EQ(decode(emoji, 0).code_point, U'\U0001F600');
    for (std::string_view bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\x80", "\xFF"}) {
        const auto d = decode(bad, 0); // overlong, surrogate, past U+10FFFF, truncated, stray, never UTF-8
        EXPECT_FALSE(d.valid);
        EXPECT_EQ(d.length, 1u);
        EXPECT_EQ(d.code_point, U'\uFFFD');
    }
    const std::string text = "a\xE2\x82\xAC" "b";
    EXPECT_EQ(mcp::utf8::boundary_before(text, 2), 1u);
    EXPECT_EQ(mcp::utf8::boundary_before(text, 4), 4u);
    EXPECT_EQ(mcp::utf8::boundary_before(text, 5), 5u);
    EXPECT_EQ(mcp::utf8::length(text), 3u);
}

TEST(text, printable_escapes_every_control_and_is_one_line) {
    EXPECT_EQ(mcp::printable("plain text: \"ok\" / caf\xC3\xA9 \xE4\xB8\x96"),
              "plain text: \"ok\" / caf\xC3\xA9 \xE4\xB8\x96");
    EXPECT_EQ(mcp::printable("A\r\nX-Evil: 1"), R"(A\r\nX-Evil: 1)");
    EXPECT_EQ(mcp::printable("tab\there"), R"(tab\there)");
    EXPECT_EQ(mcp::printable(std::string("nul\0esc\x1b[31mdel\x7F", 16)), R"(nul\x00esc\x1b[31mdel\x7f)");
    EXPECT_EQ(mcp::printable("\xC2\x85next\xE2\x80\xA8ls\xE2\x80\xA9ps"), R"(\u0085next\u2028ls\u2029ps)");
    EXPECT_EQ(mcp::printable("\xE2\x80\xAE"
                             "evil\xE2\x81\xA6"),
              R"(\u202eevil\u2066)"); // bidi override, isolate
    EXPECT_EQ(mcp::printable("bad\xFF"
                             "byte"),
              "bad\xEF\xBF\xBD"
              "byte");
    EXPECT_EQ(mcp::printable(mcp::printable("a\nb")), mcp::printable("a\nb")); // idempotent
    EXPECT_EQ(mcp::printable(""), "");
}

TEST(text, printable_lines_keeps_line_feeds_and_tabs_only) {
    EXPECT_EQ(mcp::printable_lines("a\n\tb\r\n\x1b[31mc"), "a\n\tb\\r\n\\x1b[31mc");
}
