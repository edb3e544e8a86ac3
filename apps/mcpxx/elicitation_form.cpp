#include "elicitation_form.hpp"

#include <mcp/json/text.hpp>
#include <mcp/json/utf8.hpp>
#include <mcp/schema/validator.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

namespace mcpxx_cli {
namespace {

using mcp::json::array;
using mcp::json::object;
using mcp::json::value;

enum class field_kind { text, integer, number, boolean, one_of, any_of };

field_kind kind_of(const object& schema) {
    const auto type = mcp::find_string(schema, "type").value_or("string");
    if (type == "array") return field_kind::any_of;
    if (type == "integer") return field_kind::integer;
    if (type == "number") return field_kind::number;
    if (type == "boolean") return field_kind::boolean;
    // Single-select: `enum` (titles from the legacy `enumNames`), or titled options in `oneOf`
    // (some servers write `anyOf`).
    if (schema.contains("enum") || schema.contains("oneOf") || schema.contains("anyOf"))
        return field_kind::one_of;
    return field_kind::text;
}

/// A value as the user sees and types it: strings bare, anything else as JSON.
std::string as_text(const value& v) {
    if (v.is_string()) return std::string(v.get_string());
    if (v.is_bool()) return v.get_bool() ? "yes" : "no";
    return mcp::to_json(v);
}

std::string quoted(std::string_view s) {
    return "\"" + std::string(s) + "\"";
}

std::string plural(std::int64_t n, std::string_view noun) {
    return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

/// minLength and maxLength count characters (code points), not bytes.
std::int64_t code_points(std::string_view s) {
    return static_cast<std::int64_t>(mcp::utf8::length(s));
}

// ------------------------------------------------------------------ choices

/// One option of an enum field: the value sent, as typed, and its title (may be empty).
struct choice {
    value sent;
    std::string text;
    std::string title;
};

std::vector<choice> choices_in(const object& schema) {
    std::vector<choice> out;
    if (const auto* values = mcp::find_array(schema, "enum")) {
        const auto* names = mcp::find_array(schema, "enumNames");
        for (std::size_t i = 0; i < values->size(); ++i) {
            choice c{.sent = (*values)[i], .text = as_text((*values)[i]), .title = {}};
            if (names && i < names->size() && (*names)[i].is_string())
                c.title = std::string((*names)[i].get_string());
            out.push_back(std::move(c));
        }
        return out;
    }
    for (const char* key : {"oneOf", "anyOf"})
        if (const auto* options = mcp::find_array(schema, key)) {
            for (const auto& o : *options) {
                if (!o.is_object()) continue;
                if (const auto* v = mcp::find_member(o.get_object(), "const"))
                    out.push_back(
                        {.sent = *v,
                         .text = as_text(*v),
                         .title = std::string(mcp::find_string(o.get_object(), "title").value_or(""))});
            }
            return out;
        }
    return out;
}

/// The choices of a multi-select field live in its `items`.
std::vector<choice> item_choices(const object& schema) {
    const auto* items = mcp::find_object(schema, "items");
    return items ? choices_in(*items) : std::vector<choice>{};
}

/// "Red (r), Green (g)" when the titles say more than the values, else "red, green".
std::string shown(const std::vector<choice>& choices) {
    std::string out;
    for (const auto& c : choices) {
        out += out.empty() ? "" : ", ";
        out += c.title.empty() || c.title == c.text ? c.text : c.title + " (" + c.text + ")";
    }
    return out;
}

/// The choice `typed` names, by value or by title; case does not matter when only one fits.
const choice* find_choice(const std::vector<choice>& choices, std::string_view typed) {
    for (const auto& c : choices)
        if (c.text == typed) return &c;
    for (const auto& c : choices)
        if (!c.title.empty() && c.title == typed) return &c;
    const choice* found = nullptr;
    const auto folded = lower(typed);
    for (const auto& c : choices)
        if (lower(c.text) == folded || (!c.title.empty() && lower(c.title) == folded)) {
            if (found) return nullptr;
            found = &c;
        }
    return found;
}

// ------------------------------------------------------------------ what a field takes

std::string format_phrase(std::string_view format) {
    if (format == "email") return "an email address";
    if (format == "uri") return "a URI like https://example.com/page";
    if (format == "date") return "a date like 2025-01-31";
    if (format == "date-time") return "a date and time like 2025-01-31T09:00:00Z";
    return "a valid " + std::string(format);
}

/// A bound as the schema spells it (0 stays 0, not 0.0).
std::string bound_text(const object& schema, std::string_view key) {
    const auto* v = mcp::find_member(schema, key);
    return v ? mcp::to_json(*v) : std::string();
}

std::string range_phrase(const object& schema) {
    const auto min = mcp::find_number(schema, "minimum"), max = mcp::find_number(schema, "maximum");
    if (min && max) return "from " + bound_text(schema, "minimum") + " to " + bound_text(schema, "maximum");
    if (min) return "at least " + bound_text(schema, "minimum");
    if (max) return "at most " + bound_text(schema, "maximum");
    return {};
}

std::string length_phrase(const object& schema) {
    const auto min = mcp::find_int(schema, "minLength"), max = mcp::find_int(schema, "maxLength");
    if (min && max && *min == *max) return "exactly " + plural(*min, "character");
    if (min && max) return std::to_string(*min) + " to " + plural(*max, "character");
    if (min) return "at least " + plural(*min, "character");
    if (max) return "at most " + plural(*max, "character");
    return {};
}

std::string count_phrase(const object& schema) {
    const auto min = mcp::find_int(schema, "minItems"), max = mcp::find_int(schema, "maxItems");
    if (min && max) return "choose " + std::to_string(*min) + " to " + std::to_string(*max);
    if (min) return "choose at least " + std::to_string(*min);
    if (max) return "choose at most " + std::to_string(*max);
    return {};
}

std::string default_text(const value& d) {
    if (!d.is_array()) return as_text(d);
    std::string out;
    for (const auto& e : d.get_array()) out += (out.empty() ? "" : ", ") + as_text(e);
    return out;
}

// ------------------------------------------------------------------ answers

field_answer problem(std::string text) {
    return {.value = std::nullopt, .problem = std::move(text)};
}
field_answer accepted(value v) {
    return {.value = std::move(v), .problem = {}};
}

field_answer text_answer(const object& schema, std::string_view answer) {
    const auto n = code_points(answer);
    if (const auto min = mcp::find_int(schema, "minLength"); min && n < *min)
        return problem("needs at least " + plural(*min, "character") + ", got " + std::to_string(n));
    if (const auto max = mcp::find_int(schema, "maxLength"); max && n > *max)
        return problem("takes at most " + plural(*max, "character") + ", got " + std::to_string(n));
    if (const auto format = mcp::find_string(schema, "format");
        format && !mcp::schema::check_format(*format, answer))
        return problem(quoted(answer) + " is not " + format_phrase(*format));
    return accepted(value(answer));
}

std::optional<std::int64_t> parse_integer(std::string_view s) {
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return n;
}

std::optional<double> parse_double(std::string_view s) {
    double d = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(d)) return std::nullopt;
    return d;
}

field_answer number_answer(const object& schema, std::string_view answer, bool whole) {
    value v;
    double d = 0;
    if (const auto i = parse_integer(answer)) {
        v = *i;
        d = static_cast<double>(*i);
    } else if (const auto x = parse_double(answer)) {
        // 2.0 and 1e3 are whole numbers too.
        constexpr double int64_limit = 9223372036854775808.0;
        if (whole && (std::trunc(*x) != *x || std::fabs(*x) >= int64_limit))
            return problem(quoted(answer) + " is not a whole number");
        v = whole ? value(static_cast<std::int64_t>(*x)) : value(*x);
        d = *x;
    } else {
        return problem(quoted(answer) + (whole ? " is not a whole number" : " is not a number"));
    }
    if (const auto min = mcp::find_number(schema, "minimum"); min && d < *min)
        return problem(std::string(answer) + " is below the minimum, " + bound_text(schema, "minimum"));
    if (const auto max = mcp::find_number(schema, "maximum"); max && d > *max)
        return problem(std::string(answer) + " is above the maximum, " + bound_text(schema, "maximum"));
    if (const auto min = mcp::find_number(schema, "exclusiveMinimum"); min && d <= *min)
        return problem(std::string(answer) + " must be more than " + bound_text(schema, "exclusiveMinimum"));
    if (const auto max = mcp::find_number(schema, "exclusiveMaximum"); max && d >= *max)
        return problem(std::string(answer) + " must be less than " + bound_text(schema, "exclusiveMaximum"));
    return accepted(std::move(v));
}

field_answer boolean_answer(std::string_view answer) {
    const auto a = lower(answer);
    if (a == "y" || a == "yes" || a == "true") return accepted(true);
    if (a == "n" || a == "no" || a == "false") return accepted(false);
    return problem(quoted(answer) + " is not yes or no (answer y or n)");
}

field_answer one_of_answer(const object& schema, std::string_view answer) {
    const auto choices = choices_in(schema);
    if (const auto* c = find_choice(choices, answer)) return accepted(c->sent);
    return problem(quoted(answer) + " is not one of: " + shown(choices));
}

field_answer any_of_answer(const object& schema, std::string_view answer) {
    const auto choices = item_choices(schema);
    array picked;
    std::set<std::string> seen;
    for (std::size_t start = 0; start <= answer.size();) {
        auto comma = answer.find(',', start);
        if (comma == std::string_view::npos) comma = answer.size();
        const auto piece = trim(answer.substr(start, comma - start));
        start = comma + 1;
        if (piece.empty()) continue;
        const auto* c = find_choice(choices, piece);
        if (!c) return problem(quoted(piece) + " is not one of: " + shown(choices));
        if (seen.insert(c->text).second) picked.push_back(c->sent);
    }
    const auto n = static_cast<std::int64_t>(picked.size());
    if (const auto min = mcp::find_int(schema, "minItems"); min && n < *min)
        return problem("choose at least " + std::to_string(*min) + ", got " + std::to_string(n));
    if (const auto max = mcp::find_int(schema, "maxItems"); max && n > *max)
        return problem("choose at most " + std::to_string(*max) + ", got " + std::to_string(n));
    return accepted(std::move(picked));
}

/// The field a validation error points at ("/age", "/colors/1"), or nullptr.
const form_field* field_at(const std::vector<form_field>& fields, std::string_view pointer) {
    if (pointer.empty() || pointer.front() != '/') return nullptr;
    const auto rest = pointer.substr(1);
    const auto segment = rest.substr(0, rest.find('/'));
    std::string name; // unescaped: ~1 is '/', ~0 is '~'
    for (std::size_t i = 0; i < segment.size(); ++i) {
        if (segment[i] == '~' && i + 1 < segment.size()) {
            name += segment[i + 1] == '1' ? '/' : '~';
            ++i;
        } else {
            name += segment[i];
        }
    }
    for (const auto& f : fields)
        if (f.name == name) return &f;
    return nullptr;
}

} // namespace

std::vector<form_field> form_fields(const object& requested_schema) {
    std::set<std::string> required;
    if (const auto* r = mcp::find_array(requested_schema, "required"))
        for (const auto& n : *r)
            if (n.is_string()) required.insert(std::string(n.get_string()));
    std::vector<form_field> out;
    if (const auto* props = mcp::find_object(requested_schema, "properties"))
        for (const auto& [name, schema] : *props)
            out.push_back({.name = std::string(name),
                           .schema = schema.is_object() ? schema.get_object() : object{},
                           .required = required.count(std::string(name)) > 0});
    return out;
}

std::string field_question(const form_field& f) {
    std::string question = "  " + f.name + (f.required ? "*" : "");
    const auto title = mcp::find_string(f.schema, "title"),
               description = mcp::find_string(f.schema, "description");
    if (title && *title != f.name) question += " - " + std::string(*title);
    if (description) question += (title && *title != f.name ? ": " : " - ") + std::string(*description);

    std::vector<std::string> details;
    const auto add = [&details](std::string d) {
        if (!d.empty()) details.push_back(std::move(d));
    };
    switch (kind_of(f.schema)) {
    case field_kind::text:
        if (const auto format = mcp::find_string(f.schema, "format"))
            add(format_phrase(*format));
        else
            add("text");
        add(length_phrase(f.schema));
        break;
    case field_kind::integer:
        add("a whole number");
        add(range_phrase(f.schema));
        break;
    case field_kind::number:
        add("a number");
        add(range_phrase(f.schema));
        break;
    case field_kind::boolean:
        add("y/n");
        break;
    case field_kind::one_of:
        add("one of: " + shown(choices_in(f.schema)));
        break;
    case field_kind::any_of:
        add("any of: " + shown(item_choices(f.schema)) + ", separated by commas");
        add(count_phrase(f.schema));
        break;
    }
    if (const auto* d = mcp::find_member(f.schema, "default")) add("default " + default_text(*d));
    std::string joined;
    for (const auto& d : details) joined += (joined.empty() ? "" : "; ") + d;
    // All of it but the punctuation is the server's (names, titles, choices), and it is asked
    // on one line (the line editor's prompt): escaped whole, line feeds too.
    return mcp::printable(question + " (" + joined + ")") + ": ";
}

field_answer interpret_answer(const form_field& f, std::string_view typed) {
    const auto kind = kind_of(f.schema);
    // Text is taken as typed (spaces may matter), but for a line ending in CR; everything else
    // is a word or a number, where surrounding spaces are noise.
    if (!typed.empty() && typed.back() == '\r') typed.remove_suffix(1);
    const std::string_view answer = kind == field_kind::text ? typed : trim(typed);
    if (answer.empty()) {
        if (!f.required) return {}; // left out: the server's default applies
        if (const auto* d = mcp::find_member(f.schema, "default")) return accepted(*d);
        return problem("an answer is required");
    }
    switch (kind) {
    case field_kind::text:
        return text_answer(f.schema, answer);
    case field_kind::integer:
        return number_answer(f.schema, answer, true);
    case field_kind::number:
        return number_answer(f.schema, answer, false);
    case field_kind::boolean:
        return boolean_answer(answer);
    case field_kind::one_of:
        return one_of_answer(f.schema, answer);
    case field_kind::any_of:
        return any_of_answer(f.schema, answer);
    }
    return problem("cannot be answered");
}

std::optional<object> fill_form(const object& requested_schema, const ask_function& ask,
                                const say_function& say) {
    const auto fields = form_fields(requested_schema);
    if (std::any_of(fields.begin(), fields.end(), [](const form_field& f) { return f.required; }))
        say("  (* = required; an empty answer leaves a field out, or takes its default)\n");
    object content;
    // Asks until the answer is usable; false when the input ended.
    const auto ask_field = [&](const form_field& f, std::string reason) {
        for (;;) {
            if (!reason.empty()) say("    " + mcp::printable(reason) + "\n");
            const auto typed = ask(field_question(f));
            if (!typed) return false;
            auto answer = interpret_answer(f, *typed);
            if (answer.usable()) {
                if (answer.value)
                    content[f.name] = std::move(*answer.value);
                else
                    content.erase(f.name);
                return true;
            }
            reason = std::move(answer.problem);
        }
    };
    for (const auto& f : fields)
        if (!ask_field(f, {})) return std::nullopt;

    // The last word is the schema's: what the per-field rules do not know (a pattern, a format
    // of its own) is checked here, and the fields it rejects are asked again.
    std::optional<mcp::schema::validator> check;
    try {
        check = mcp::schema::validator::compile(value(requested_schema), {.assert_format = true});
    } catch (const mcp::schema::compile_error&) {
        return content; // a schema we cannot compile: the per-field checks are all there is
    }
    for (;;) {
        const auto errors = check->validate(value(content));
        if (errors.empty()) return content;
        std::set<std::string> asked;
        for (const auto& e : errors) {
            const auto* f = field_at(fields, e.instance_location);
            if (!f || !asked.insert(f->name).second) continue;
            if (!ask_field(*f, e.message)) return std::nullopt;
        }
        if (asked.empty()) {
            // Nothing to ask again (say, a required field the form does not define).
            say("  this form cannot be filled in: " + mcp::printable(errors.front().message) + "\n");
            return std::nullopt;
        }
    }
}

} // namespace mcpxx_cli
