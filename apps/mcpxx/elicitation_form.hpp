// Filling in a form-mode elicitation on a terminal: the question for each field of the
// requestedSchema (the spec's restricted schema: strings with a length or a format, numbers and
// integers with a range, booleans, single- and multi-select enums with or without titles), and
// what a typed answer means for that field. No terminal in here, so that the rules are tested on
// their own (tests/unit/elicitation_form_test.cpp); terminal_elicitation asks the questions.
#pragma once

#include <mcp/json/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpxx_cli {

/// One field of a form: requestedSchema.properties[name].
struct form_field {
    std::string name;
    mcp::json::object schema;
    bool required = false;
};

/// The fields of a requestedSchema, in the schema's order.
std::vector<form_field> form_fields(const mcp::json::object& requested_schema);

/// The question for a field: its name (`*` when required), its title or description, and what
/// it takes, e.g. `  age* (a whole number; at least 0): `. One line, the server's text escaped
/// (mcp::printable).
std::string field_question(const form_field& field);

/// What one answer gives a field: a value, nothing (the field is left out and the server's
/// default applies), or a problem to tell the user before asking again.
struct field_answer {
    std::optional<mcp::json::value> value;
    std::string problem; ///< one line, e.g. `"abc" is not a whole number`; empty when usable
    bool usable() const { return problem.empty(); }
};

/// Convert `answer` to the field's type and check it against the field's constraints. An empty
/// answer leaves an optional field out, gives a required field its default, and is a problem for
/// a required field without one.
field_answer interpret_answer(const form_field& field, std::string_view answer);

/// Shows a question and returns the line typed; nullopt at the end of input.
using ask_function = std::function<std::optional<std::string>(const std::string& question)>;
/// Shows whole lines of text.
using say_function = std::function<void(const std::string& text)>;

/// Ask for every field until each answer is usable, then check the whole content against
/// `requested_schema` (formats asserted) and ask again for the fields it rejects. nullopt when
/// the input ends (the elicitation is cancelled) or the schema cannot be satisfied.
std::optional<mcp::json::object> fill_form(const mcp::json::object& requested_schema, const ask_function& ask,
                                           const say_function& say);

} // namespace mcpxx_cli
