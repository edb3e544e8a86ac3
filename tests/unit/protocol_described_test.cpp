// The field attributes of described structs: a wire name, since/until a revision. Checked on the
// generated protocol codec (src/protocol/described.hpp) with a type of the test's own, and on
// mcp::type_codec (which honours the wire name and ignores versions).
#include "protocol/described.hpp"

#include <mcp/json/type_codec.hpp>

#include <gtest/gtest.h>

namespace demo {

struct widget {
    std::string name;
    std::optional<std::string> label;        // 2025-06-18 and later
    std::optional<std::int64_t> legacy_size; // through 2025-03-26, as "size"
    std::vector<std::string> tags;           // 2025-11-25 only
    std::optional<std::int64_t> ttl_ms;      // written as 0 when unset, 2026-07-28
};

using mcp::revision;
MCP_WIRE_DESCRIBE(widget, "Widget", (name), (label, mcp::field::since(revision::v2025_06_18)),
                  (legacy_size, mcp::field::wire_name("size"), mcp::field::until(revision::v2025_03_26)),
                  (tags, mcp::field::since(revision::v2025_11_25), mcp::field::until(revision::v2025_11_25)),
                  (ttl_ms, when(mcp::wire_field::cacheable_result), or_else(std::int64_t{0})))

struct forecast {
    int days = 3;
    std::optional<std::string> unit;
};
MCP_DESCRIBE(forecast, (days, "Days ahead", mcp::field::wire_name("daysAhead")),
             (unit, "Units", mcp::field::since(mcp::revision::v2025_11_25)));

} // namespace demo

namespace {

using namespace mcp;
using demo::widget;

widget full() {
    return {"w", "Label", 7, {"a", "b"}, std::nullopt};
}

json::value j(std::string_view text) {
    return json::parse(text);
}

std::string error_of(const json::value& v, std::optional<revision> r = std::nullopt) {
    try {
        (void)wire::read_struct<widget>(v, "Widget", r);
    } catch (const mcp::error& e) {
        return e.what();
    }
    return "";
}

TEST(ProtocolDescribed, CamelCaseNamesAtCompileTime) {
    EXPECT_STREQ(wire::camel<"input_schema">(), "inputSchema");
    EXPECT_STREQ(wire::camel<"read_only_hint">(), "readOnlyHint");
    EXPECT_STREQ(wire::camel<"name">(), "name");
}

TEST(ProtocolDescribed, AFieldIsWrittenOnlyInTheRevisionsThatDefineIt) {
    EXPECT_EQ(wire::write_struct(full(), revision::v2024_11_05), j(R"({"name":"w","size":7})"));
    EXPECT_EQ(wire::write_struct(full(), revision::v2025_03_26), j(R"({"name":"w","size":7})"));
    EXPECT_EQ(wire::write_struct(full(), revision::v2025_06_18), j(R"({"name":"w","label":"Label"})"));
    EXPECT_EQ(wire::write_struct(full(), revision::v2025_11_25),
              j(R"({"name":"w","label":"Label","tags":["a","b"]})"));
    EXPECT_EQ(wire::write_struct(full(), revision::v2026_07_28), j(R"({"name":"w","label":"Label","ttlMs":0})"));
}

TEST(ProtocolDescribed, OptionalMembersAbsentStayAbsent) {
    widget w;
    w.name = "w";
    const auto o = wire::write_struct(w, revision::v2025_11_25);
    EXPECT_EQ(o, j(R"({"name":"w"})")); // no nulls, no empty list
}

TEST(ProtocolDescribed, AFieldIsReadOnlyInTheRevisionsThatDefineIt) {
    const auto v = j(R"({"name":"w","label":"L","size":3,"tags":["t"]})");
    auto old = wire::read_struct<widget>(v, "Widget", revision::v2024_11_05);
    EXPECT_EQ(old.legacy_size, 3);
    EXPECT_FALSE(old.label);
    EXPECT_TRUE(old.tags.empty());
    auto now = wire::read_struct<widget>(v, "Widget", revision::v2025_11_25);
    EXPECT_FALSE(now.legacy_size);
    EXPECT_EQ(now.label, "L");
    EXPECT_EQ(now.tags, std::vector<std::string>{"t"});
    // Without a revision (the tolerant parse of from_json) every member is read.
    auto any = wire::read_struct<widget>(v, "Widget");
    EXPECT_EQ(any.legacy_size, 3);
    EXPECT_EQ(any.label, "L");
    // A member the revision lacks is not even looked at, so a bad one is no error there.
    EXPECT_EQ(error_of(j(R"({"name":"w","label":5})"), revision::v2025_03_26), "");
}

TEST(ProtocolDescribed, ARenamedFieldTravelsUnderItsWireName) {
    auto w = wire::read_struct<widget>(j(R"({"name":"w","legacySize":1,"size":2})"), "Widget");
    EXPECT_EQ(w.legacy_size, 2);
    EXPECT_FALSE(wire::write_struct(full(), revision::v2024_11_05).contains("legacySize"));
}

TEST(ProtocolDescribed, ErrorsNameThePath) {
    EXPECT_EQ(error_of(j("[]")), "Invalid params: Widget must be an object");
    EXPECT_EQ(error_of(j("{}")), "Invalid params: Widget.name is required");
    EXPECT_EQ(error_of(j(R"({"name":1})")), "Invalid params: Widget.name must be a string");
    EXPECT_EQ(error_of(j(R"({"name":"w","size":"x"})")), "Invalid params: Widget.size must be an integer");
    EXPECT_EQ(error_of(j(R"({"name":"w","tags":["a",2]})")), "Invalid params: Widget.tags[1] must be a string");
    EXPECT_EQ(error_of(j(R"({"name":"w","tags":{}})")), "Invalid params: Widget.tags must be an array");
    EXPECT_EQ(error_of(j(R"({"name":"w","label":null})")), ""); // null is absent
}

TEST(ProtocolDescribed, TypeCodecHonoursTheWireName) {
    demo::forecast f{5, "C"};
    EXPECT_EQ(mcp::to_value(f), j(R"({"daysAhead":5,"unit":"C"})"));
    EXPECT_EQ(mcp::from_value<demo::forecast>(j(R"({"daysAhead":2})")).days, 2);
    const auto schema = type_codec<demo::forecast>::schema();
    EXPECT_TRUE(schema.at("properties").as_object().contains("daysAhead"));
    try {
        (void)mcp::from_value<demo::forecast>(j(R"({"daysAhead":"x"})"));
        ADD_FAILURE();
    } catch (const conversion_error& e) {
        EXPECT_EQ(e.location(), "/daysAhead");
    }
}

} // namespace
