// Filling in an elicitation form (apps/mcpxx/elicitation_form.cpp): each answer converted to its
// field's type and checked against the field's constraints, the questions that say what a field
// takes, and whole forms answered line by line (asked again on a bad answer, cancelled at the end
// of input).
#include "elicitation_form.hpp"

#include <mcp/json/json.hpp>

#include <gtest/gtest.h>

#include <deque>

namespace {

using namespace mcpxx_cli;
using mcp::json::object;
using mcp::json::value;

form_field field(const char* schema_json, bool required = false) {
    return {.name = "f", .schema = boost::json::parse(schema_json).as_object(), .required = required};
}

/// The value an answer gives, as JSON ("omitted" when left out), or "problem: ...".
std::string answer(const form_field& f, std::string_view typed) {
    const auto a = interpret_answer(f, typed);
    if (!a.usable()) return "problem: " + a.problem;
    return a.value ? mcp::to_json(*a.value) : "omitted";
}

TEST(elicitation_form, strings_with_length_and_format) {
    const auto text = field(R"({"type":"string","minLength":2,"maxLength":4})");
    EXPECT_EQ(answer(text, "Bob"), R"("Bob")");
    EXPECT_EQ(answer(text, " 42 "), R"(" 42 ")"); // text is taken as typed
    EXPECT_EQ(answer(text, "B"), "problem: needs at least 2 characters, got 1");
    EXPECT_EQ(answer(text, "Bobby"), "problem: takes at most 4 characters, got 5");
    EXPECT_EQ(answer(text, "héhé"), R"("héhé")"); // characters, not bytes
    EXPECT_EQ(answer(field(R"({"type":"string","minLength":1})"), "x\r"), R"("x")");
    const auto email = field(R"({"type":"string","format":"email"})");
    EXPECT_EQ(answer(email, "bob@example.com"), R"("bob@example.com")");
    EXPECT_EQ(answer(email, "bob"), R"(problem: "bob" is not an email address)");
    EXPECT_EQ(answer(field(R"({"type":"string","format":"uri"})"), "not a uri"),
              R"(problem: "not a uri" is not a URI like https://example.com/page)");
    EXPECT_EQ(answer(field(R"({"type":"string","format":"uri"})"), "https://example.com/x"),
              R"("https://example.com/x")");
    const auto date = field(R"({"type":"string","format":"date"})");
    EXPECT_EQ(answer(date, "2025-02-28"), R"("2025-02-28")");
    EXPECT_EQ(answer(date, "2025-02-30"), R"(problem: "2025-02-30" is not a date like 2025-01-31)");
    const auto when = field(R"({"type":"string","format":"date-time"})");
    EXPECT_EQ(answer(when, "2025-01-31T09:00:00Z"), R"("2025-01-31T09:00:00Z")");
    EXPECT_EQ(answer(when, "tomorrow"),
              R"(problem: "tomorrow" is not a date and time like 2025-01-31T09:00:00Z)");
}

TEST(elicitation_form, numbers_and_integers_with_a_range) {
    const auto age = field(R"({"type":"integer","minimum":0,"maximum":120})");
    EXPECT_EQ(answer(age, "42"), "42");
    EXPECT_EQ(answer(age, " 7 "), "7");
    EXPECT_EQ(answer(age, "3.0"), "3");
    EXPECT_EQ(answer(age, "1e2"), "100");
    EXPECT_EQ(answer(age, "abc"), R"(problem: "abc" is not a whole number)");
    EXPECT_EQ(answer(age, "1.5"), R"(problem: "1.5" is not a whole number)");
    EXPECT_EQ(answer(age, "-1"), "problem: -1 is below the minimum, 0");
    EXPECT_EQ(answer(age, "121"), "problem: 121 is above the maximum, 120");
    const auto price = field(R"({"type":"number","minimum":0.5})");
    EXPECT_EQ(answer(price, "2.25"), "2.25");
    EXPECT_EQ(answer(price, "2"), "2");
    EXPECT_EQ(answer(price, "0.25"), "problem: 0.25 is below the minimum, 0.5");
    EXPECT_EQ(answer(price, "nan"), R"(problem: "nan" is not a number)");
    EXPECT_EQ(answer(price, "inf"), R"(problem: "inf" is not a number)");
    EXPECT_EQ(answer(price, "12abc"), R"(problem: "12abc" is not a number)");
}

TEST(elicitation_form, booleans) {
    const auto b = field(R"({"type":"boolean"})");
    for (const char* yes : {"y", "Y", "yes", "true", "TRUE"}) EXPECT_EQ(answer(b, yes), "true") << yes;
    for (const char* no : {"n", "no", "false", "No"}) EXPECT_EQ(answer(b, no), "false") << no;
    EXPECT_EQ(answer(b, "maybe"), R"(problem: "maybe" is not yes or no (answer y or n))");
}

TEST(elicitation_form, single_select_by_value_or_title) {
    const auto plain = field(R"({"type":"string","enum":["red","green","blue"]})");
    EXPECT_EQ(answer(plain, "green"), R"("green")");
    EXPECT_EQ(answer(plain, "GREEN"), R"("green")"); // case does not matter when one fits
    EXPECT_EQ(answer(plain, "purple"), R"(problem: "purple" is not one of: red, green, blue)");
    const auto titled = field(
        R"({"type":"string","oneOf":[{"const":"#f00","title":"Red"},{"const":"#0f0","title":"Green"}]})");
    EXPECT_EQ(answer(titled, "Red"), R"("#f00")");
    EXPECT_EQ(answer(titled, "#0f0"), R"("#0f0")");
    EXPECT_EQ(answer(titled, "blue"), R"(problem: "blue" is not one of: Red (#f00), Green (#0f0))");
    const auto legacy = field(R"({"type":"string","enum":["s","m"],"enumNames":["Small","Medium"]})");
    EXPECT_EQ(answer(legacy, "Medium"), R"("m")");
    EXPECT_EQ(answer(legacy, "s"), R"("s")");
}

TEST(elicitation_form, multi_select_comma_separated) {
    const auto plain =
        field(R"({"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"maxItems":2})");
    EXPECT_EQ(answer(plain, "a, c"), R"(["a","c"])");
    EXPECT_EQ(answer(plain, "b,b"), R"(["b"])");
    EXPECT_EQ(answer(plain, "a,b,c"), "problem: choose at most 2, got 3");
    EXPECT_EQ(answer(plain, " , "), "problem: choose at least 1, got 0");
    EXPECT_EQ(answer(plain, "a,z"), R"(problem: "z" is not one of: a, b, c)");
    const auto titled = field(
        R"({"type":"array","items":{"anyOf":[{"const":"x","title":"Ex"},{"const":"y","title":"Why"}]}})");
    EXPECT_EQ(answer(titled, "Ex, y"), R"(["x","y"])");
}

TEST(elicitation_form, empty_answers) {
    EXPECT_EQ(answer(field(R"({"type":"integer"})"), ""), "omitted"); // the server's default applies
    EXPECT_EQ(answer(field(R"({"type":"string","default":"blue"})"), ""), "omitted");
    EXPECT_EQ(answer(field(R"({"type":"string","default":"blue"})", true), ""), R"("blue")");
    EXPECT_EQ(answer(field(R"({"type":"integer","default":3})", true), "  "), "3");
    EXPECT_EQ(answer(field(R"({"type":"string"})", true), ""), "problem: an answer is required");
    EXPECT_EQ(answer(field(R"({"type":"boolean"})", true), ""), "problem: an answer is required");
}

TEST(elicitation_form, questions_say_what_a_field_takes) {
    const auto fields = form_fields(boost::json::parse(R"({"type":"object","properties":{
        "name":{"type":"string","title":"Name","minLength":1},
        "age":{"type":"integer","minimum":0,"description":"In years"},
        "color":{"type":"string","enum":["red","green"],"default":"green"},
        "tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"maxItems":1},
        "ok":{"type":"boolean","default":true},
        "mail":{"type":"string","format":"email","maxLength":1}},
        "required":["name","ok"]})")
                                        .as_object());
    ASSERT_EQ(fields.size(), 6u);
    EXPECT_EQ(field_question(fields[0]), "  name* - Name (text; at least 1 character): ");
    EXPECT_EQ(field_question(fields[1]), "  age - In years (a whole number; at least 0): ");
    EXPECT_EQ(field_question(fields[2]), "  color (one of: red, green; default green): ");
    EXPECT_EQ(field_question(fields[3]), "  tags (any of: a, b, separated by commas; choose at most 1): ");
    EXPECT_EQ(field_question(fields[4]), "  ok* (y/n; default yes): ");
    EXPECT_EQ(field_question(fields[5]), "  mail (an email address; at most 1 character): ");
}

/// A form answered from a script of lines; what was said and asked is kept.
struct scripted {
    std::deque<std::string> lines;
    std::string transcript;
    std::optional<object> fill(const char* schema) {
        return fill_form(
            boost::json::parse(schema).as_object(),
            [this](const std::string& q) -> std::optional<std::string> {
                transcript += q;
                if (lines.empty()) return std::nullopt;
                auto l = lines.front();
                lines.pop_front();
                transcript += l + "\n";
                return l;
            },
            [this](const std::string& text) { transcript += text; });
    }
};

// everything_server's ask_user form.
constexpr const char* ask_user_schema = R"({"type":"object","properties":{
    "name":{"type":"string","title":"Name"},
    "age":{"type":"integer","minimum":0},
    "color":{"type":"string","enum":["red","green","blue"],"default":"blue"}},
    "required":["name"]})";

TEST(elicitation_form, a_bad_answer_is_asked_again_with_the_reason) {
    scripted user{.lines = {"", "Bob", "abc", "-4", "30", "purple", "green"}, .transcript = {}};
    const auto content = user.fill(ask_user_schema);
    ASSERT_TRUE(content) << user.transcript;
    EXPECT_EQ(mcp::to_json(value(*content)), R"({"name":"Bob","age":30,"color":"green"})");
    EXPECT_EQ(user.transcript, "  (* = required; an empty answer leaves a field out, or takes its default)\n"
                               "  name* - Name (text): \n"
                               "    an answer is required\n"
                               "  name* - Name (text): Bob\n"
                               "  age (a whole number; at least 0): abc\n"
                               "    \"abc\" is not a whole number\n"
                               "  age (a whole number; at least 0): -4\n"
                               "    -4 is below the minimum, 0\n"
                               "  age (a whole number; at least 0): 30\n"
                               "  color (one of: red, green, blue; default blue): purple\n"
                               "    \"purple\" is not one of: red, green, blue\n"
                               "  color (one of: red, green, blue; default blue): green\n");
}

TEST(elicitation_form, optional_fields_left_out_and_end_of_input_cancels) {
    scripted user{.lines = {"Ada", "", ""}, .transcript = {}};
    const auto content = user.fill(ask_user_schema);
    ASSERT_TRUE(content);
    EXPECT_EQ(mcp::to_json(value(*content)), R"({"name":"Ada"})");
    scripted gone{.lines = {"Ada", "abc"}, .transcript = {}};
    EXPECT_FALSE(gone.fill(ask_user_schema));
}

TEST(elicitation_form, the_schema_has_the_last_word) {
    // A pattern is not a rule of the restricted schema, but the whole content is still checked
    // against the schema before it is sent: the field is asked again.
    scripted user{.lines = {"abc", "ABC"}, .transcript = {}};
    const auto content =
        user.fill(R"({"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]+$"}}})");
    ASSERT_TRUE(content) << user.transcript;
    EXPECT_EQ(mcp::to_json(value(*content)), R"({"code":"ABC"})");
    EXPECT_NE(user.transcript.find("  code (text): abc\n    "), std::string::npos) << user.transcript;
    // A required field the form does not define cannot be asked for: cancelled, with the reason.
    scripted nobody{.lines = {}, .transcript = {}};
    EXPECT_FALSE(nobody.fill(R"({"type":"object","properties":{},"required":["ghost"]})"));
    EXPECT_NE(nobody.transcript.find("this form cannot be filled in"), std::string::npos)
        << nobody.transcript;
}

} // namespace
