#include <mcp/json/base64.hpp>
#include <mcp/json/json.hpp>
#include <mcp/json/text.hpp>

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
    EXPECT_EQ(mcp::utf8_prefix("h\xC3\xA9llo", 2), "h"); // é does not fit whole
    EXPECT_EQ(mcp::utf8_prefix("h\xC3\xA9llo", 3), "h\xC3\xA9");
    EXPECT_EQ(mcp::utf8_prefix("a\xFF"
                               "b",
                               10),
              "a\xEF\xBF\xBD"
              "b");                                                                          // invalid byte
    EXPECT_EQ(mcp::utf8_prefix("\xC0\xAF", 10), "\xEF\xBF\xBD\xEF\xBF\xBD");                 // overlong '/'
    EXPECT_EQ(mcp::utf8_prefix("\xED\xA0\x80", 10), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); // surrogate
}

TEST(text, printable_escapes_every_control_and_is_one_line) {
    EXPECT_EQ(mcp::printable("ok\r\nnext\tcol"), "ok\\r\\nnext\\tcol");
    EXPECT_EQ(mcp::printable("\x1b]0;pwned\x07title"), "\\x1b]0;pwned\\x07title");
    EXPECT_EQ(mcp::printable("\x7f"), "\\x7f");
    EXPECT_EQ(mcp::printable("\xC2\x9B"
                             "31m"),
              "\\u009b31m"); // C1 CSI
    EXPECT_EQ(mcp::printable("a\xE2\x80\xAE"
                             "b\xE2\x80\xA8"),
              "a\\u202eb\\u2028");                                                             // RLO, LS
    EXPECT_EQ(mcp::printable("caf\xC3\xA9 \xF0\x9F\x99\x82"), "caf\xC3\xA9 \xF0\x9F\x99\x82"); // text stays
    const std::string once = mcp::printable("x\x1b[2Jy\xFF");
    EXPECT_EQ(mcp::printable(once), once);
}

TEST(text, printable_lines_keeps_line_feeds_and_tabs_only) {
    EXPECT_EQ(mcp::printable_lines("a\n\tb\r\n\x1b[31mc"), "a\n\tb\\r\n\\x1b[31mc");
}
