// type_codec_test.cpp - MCP_DESCRIBE: schemas from C++ types and conversion both ways.
#include <mcp/json/type_codec.hpp>
#include <mcp/schema/from_type.hpp>

#include <gtest/gtest.h>

namespace json = mcp::json;

namespace weather {

enum class units { celsius, fahrenheit };
MCP_DESCRIBE_ENUM(units, celsius, fahrenheit)

struct location {
    double lat = 0;
    double lon = 0;
};
MCP_DESCRIBE(location, (lat, "Latitude", mcp::field::range(-90, 90)), (lon, "Longitude"))

struct forecast_args {
    std::string city;
    int days = 3;
    std::optional<units> unit;
    bool verbose = false;
    std::vector<std::string> tags;
    std::optional<location> where;
    std::map<std::string, int> weights;
    std::variant<std::int64_t, std::string> id = std::int64_t{0};
};
MCP_DESCRIBE(forecast_args, (city, "City name", mcp::field::min_length(1)),
             (days, "Days ahead", mcp::field::range(1, 7)), (unit, "Units"),
             (verbose, "More detail", mcp::field::optional),
             (tags, "Free tags", mcp::field::optional, mcp::field::max_items(3)), (where, "Coordinates"),
             (weights, "Per-source weights", mcp::field::optional), (id, "Request id", mcp::field::required))

struct boost_only {
    int a;
    std::string b = "x";
};
BOOST_DESCRIBE_STRUCT(boost_only, (), (a, b))

} // namespace weather

using weather::forecast_args;
using weather::units;

TEST(TypeCodec, SchemaOfDescribedStruct) {
    const auto& s = mcp::schema::schema_of<forecast_args>();
    const auto expected = json::parse(R"({
      "type": "object",
      "properties": {
        "city": {"type": "string", "description": "City name", "minLength": 1},
        "days": {"type": "integer", "description": "Days ahead", "minimum": 1, "maximum": 7, "default": 3},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Units"},
        "verbose": {"type": "boolean", "description": "More detail", "default": false},
        "tags": {"type": "array", "items": {"type": "string"}, "description": "Free tags", "maxItems": 3, "default": []},
        "where": {"type": "object", "properties": {
            "lat": {"type": "number", "description": "Latitude", "minimum": -90, "maximum": 90},
            "lon": {"type": "number", "description": "Longitude"}},
          "required": ["lat", "lon"], "description": "Coordinates"},
        "weights": {"type": "object", "additionalProperties": {"type": "integer"}, "description": "Per-source weights", "default": {}},
        "id": {"oneOf": [{"type": "integer"}, {"type": "string"}], "description": "Request id"}
      },
      "required": ["city", "id"]
    })");
    EXPECT_EQ(json::value(s), expected) << mcp::to_json(s);
    // Built once: the same object every time.
    EXPECT_EQ(&s, &mcp::schema::schema_of<forecast_args>());
    // The generated schema is itself a valid 2020-12 schema that accepts what to_value produces.
    forecast_args a{.city = "Paris",
                    .days = 2,
                    .unit = units::fahrenheit,
                    .tags = {"x"},
                    .where = weather::location{1, 2}};
    EXPECT_TRUE(mcp::schema::validator_of<forecast_args>().is_valid(mcp::to_value(a)));
}

TEST(TypeCodec, RoundTrip) {
    forecast_args a{.city = "Paris",
                    .days = 5,
                    .unit = units::celsius,
                    .verbose = true,
                    .tags = {"a", "b"},
                    .where = weather::location{48.8, 2.3},
                    .weights = {{"x", 1}},
                    .id = std::string("r1")};
    const json::value v = mcp::to_value(a);
    EXPECT_EQ(mcp::to_json(v), R"({"city":"Paris","days":5,"unit":"celsius","verbose":true,"tags":["a","b"],)"
                               R"("where":{"lat":48.8,"lon":2.3},"weights":{"x":1},"id":"r1"})");
    const auto b = mcp::from_value<forecast_args>(v);
    EXPECT_EQ(b.city, "Paris");
    EXPECT_EQ(b.days, 5);
    EXPECT_EQ(b.unit, units::celsius);
    EXPECT_TRUE(b.verbose);
    EXPECT_EQ(b.tags, (std::vector<std::string>{"a", "b"}));
    ASSERT_TRUE(b.where);
    EXPECT_DOUBLE_EQ(b.where->lat, 48.8);
    EXPECT_EQ(std::get<std::string>(b.id), "r1");
}

TEST(TypeCodec, AbsentMembersKeepDefaultsAndOptionalsAreOmitted) {
    const auto a =
        mcp::from_value<forecast_args>(json::parse(R"({"city":"Oslo","id":7,"unit":null,"extra":1})"));
    EXPECT_EQ(a.days, 3);
    EXPECT_FALSE(a.unit);
    EXPECT_EQ(std::get<std::int64_t>(a.id), 7);
    EXPECT_EQ(mcp::to_json(mcp::to_value(a)),
              R"({"city":"Oslo","days":3,"verbose":false,"tags":[],"weights":{},"id":7})");
}

TEST(TypeCodec, ErrorsNameTheLocation) {
    auto error_of = [](const char* text) -> std::string {
        try {
            (void)mcp::from_value<forecast_args>(json::parse(text));
        } catch (const mcp::conversion_error& e) {
            return e.what();
        }
        return "no error";
    };
    EXPECT_EQ(error_of(R"({"id":1})"), R"((root): missing required property "city")");
    EXPECT_EQ(error_of(R"({"city":1,"id":1})"), "/city: expected a string, got integer");
    EXPECT_EQ(error_of(R"({"city":"a","id":1,"days":2.5})"), "/days: expected an integer, got number");
    EXPECT_EQ(error_of(R"({"city":"a","id":1,"days":9999999999})"),
              "/days: integer out of range [-2147483648, 2147483647]");
    EXPECT_EQ(error_of(R"({"city":"a","id":1,"unit":"kelvin"})"),
              R"(/unit: "kelvin" is not one of celsius, fahrenheit)");
    EXPECT_EQ(error_of(R"({"city":"a","id":1,"tags":["x",2]})"), "/tags/1: expected a string, got integer");
    EXPECT_EQ(error_of(R"({"city":"a","id":1,"where":{"lat":1}})"),
              R"(/where: missing required property "lon")");
    EXPECT_EQ(error_of(R"({"city":"a","id":1,"weights":{"a/b":"x"}})"),
              "/weights/a~1b: expected an integer, got string");
    EXPECT_EQ(error_of(R"({"city":"a","id":true})"), "/id: matches no alternative ((root): expected an "
                                                     "integer, got boolean; (root): expected a string, got "
                                                     "boolean)");
    EXPECT_EQ(error_of("[]"), "(root): expected an object, got array");
}

TEST(TypeCodec, IntegersAcceptWholeDoublesAndCheckRange) {
    EXPECT_EQ(mcp::from_value<int>(json::value(3.0)), 3);
    EXPECT_EQ(mcp::from_value<std::uint8_t>(json::value(255)), 255);
    EXPECT_THROW((void)mcp::from_value<std::uint8_t>(json::value(256)), mcp::conversion_error);
    EXPECT_THROW((void)mcp::from_value<unsigned>(json::value(-1)), mcp::conversion_error);
    EXPECT_EQ(mcp::from_value<std::uint64_t>(json::value(std::uint64_t(18446744073709551615ull))),
              18446744073709551615ull);
    EXPECT_DOUBLE_EQ(mcp::from_value<double>(json::value(2)), 2.0);
    EXPECT_EQ(json::value(mcp::schema::schema_of<unsigned>()),
              json::parse(R"({"type":"integer","minimum":0})"));
}

TEST(TypeCodec, BoostDescribedStructsWork) {
    const auto& s = mcp::schema::schema_of<weather::boost_only>();
    EXPECT_EQ(json::value(s), json::parse(R"({"type":"object","properties":{"a":{"type":"integer"},)"
                                          R"("b":{"type":"string","default":"x"}},"required":["a"]})"));
    const auto v = mcp::from_value<weather::boost_only>(json::parse(R"({"a":4})"));
    EXPECT_EQ(v.a, 4);
    EXPECT_EQ(v.b, "x");
}

namespace forms {
enum class colour { red, green };
MCP_DESCRIBE_ENUM(colour, red, green)
struct contact {
    std::string name;
    std::optional<int> age;
    bool subscribe = true;
    std::vector<colour> favourites;
};
MCP_DESCRIBE(contact, (name, "Your name"), (age, "Age"), (subscribe, "Newsletter"), (favourites, "Colours"))
struct nested {
    contact c;
};
MCP_DESCRIBE(nested, (c, "no"))
} // namespace forms

TEST(TypeCodec, ElicitableTypesAreFlat) {
    static_assert(mcp::schema::elicitable<forms::contact>);
    static_assert(!mcp::schema::elicitable<forms::nested>);
    static_assert(!mcp::schema::elicitable<forecast_args>);
    const auto& s = mcp::schema::elicitation_schema_of<forms::contact>();
    EXPECT_EQ(json::value(s), json::parse(R"({"type":"object","properties":{
        "name":{"type":"string","description":"Your name"},
        "age":{"type":"integer","description":"Age"},
        "subscribe":{"type":"boolean","description":"Newsletter","default":true},
        "favourites":{"type":"array","items":{"type":"string","enum":["red","green"]},"description":"Colours","default":[]}},
        "required":["name"]})"));
}
