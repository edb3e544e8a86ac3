// mcp/protocol/uri_template.hpp - RFC 6570 URI templates: parsing, expansion (levels 1-4) and
// matching a concrete URI back to the template's variables.
//
//   mcp::uri_template t("file:///{+path}{?rev}");             // parsed once; throws if invalid
//   t.expand({{"path", "src/main.cpp"}, {"rev", 3}});        // "file:///src/main.cpp?rev=3"
//   auto vars = t.match("file:///src/a%20b.cpp?rev=3");      // {path: "src/a b.cpp", rev: "3"}
//
// MCP resource templates (resources/templates/list) are URI templates; a server compiles each one
// when it is registered and matches resources/read URIs against it.
#pragma once

#include <mcp/json/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// An invalid template (at parse time) or a variable value that RFC 6570 cannot expand (at
/// expansion time). what() says what is wrong and where; offset() is the byte offset in the
/// template text of the offending character (parse errors) or of the expression's '{'
/// (expansion errors).
class uri_template_error : public std::runtime_error {
public:
    uri_template_error(const std::string& message, std::size_t offset);
    std::size_t offset() const noexcept { return offset_; }

private:
    std::size_t offset_;
};

/// A parsed RFC 6570 URI template. Immutable after construction; copying is cheap enough for
/// registries, and expand/match may be called from any number of threads at once.
///
/// Syntax accepted is RFC 6570 §2 exactly, with one relaxation: the apostrophe (') is accepted
/// in literals (the RFC's own examples use it; it is a URI sub-delimiter). Literal bytes >= 0x80
/// are taken as UTF-8 and written percent-encoded by expansion.
class uri_template {
public:
    /// Parse `text`. Throws uri_template_error for an invalid template: an unclosed or stray
    /// brace, an unknown or reserved operator (= , ! @ |), an empty or invalid variable name, a
    /// bad prefix length (must be 1..9999 without a leading zero), both ':' and '*' on one
    /// variable, or a literal character that cannot appear in a URI template.
    explicit uri_template(std::string_view text);

    /// Parse `text`, or nullopt if it is not a valid template.
    static std::optional<uri_template> try_parse(std::string_view text) noexcept;

    /// The template as given.
    const std::string& text() const noexcept { return text_; }

    /// Names of the variables, in order of first appearance, without duplicates.
    std::vector<std::string> variable_names() const;

    /// Expand per RFC 6570 §3 with every operator (none + # . / ; ? &), prefix (:N) and explode (*).
    /// Each variable is looked up by its name as written in the template. A JSON string, number
    /// or bool is a string value (its text; numbers in shortest round-trip form, 3.0 as "3"); an
    /// array is a list; an object is an associative array (key order kept); null, a missing name,
    /// an empty array and an object whose values are all null are undefined (null list members
    /// and null object values are skipped). Throws uri_template_error for values the RFC forbids:
    /// a prefix modifier on a list or object, or a list/object nested inside a list or object.
    std::string expand(const json::object& variables) const;
    /// Like expand(), appending to `out` (no allocation beyond growing `out`). If it throws,
    /// `out` may hold part of the expansion.
    void expand_to(std::string& out, const json::object& variables) const;

    /// Match a concrete URI against the template (the inverse of expansion): the value of every
    /// variable that appears in `uri`, percent-decoded ("%XX" -> byte; '+' is not a space; a '%'
    /// not followed by two hex digits is kept as is), or nullopt if `uri` does not match.
    ///
    /// What an expression may match (values are accepted leniently: characters expansion would
    /// have percent-encoded are accepted raw, except these delimiters):
    ///  - `{var}`, `{.var}`, `{;var}`: never '/', '?' or '#';   `{/var}`: never '?' or '#';
    ///  - `{?var}`, `{&var}`: never '#';                         `{+var}`, `{#var}`: anything.
    ///  - Literals match exactly, either as written in the template or in their expanded
    ///    (percent-encoded) form.
    /// Structure, for each operator:
    ///  - `{a,b}` `{+a,b}` `{#a,b}` `{.a,b}` `{/a,b}`: the expression's text (after its leading '#', '.'
    ///    or '/', whose absence means every variable is undefined) is split at the separator
    ///    (',', ',', ',', '.', '/'), one piece per variable from the left; variables without a
    ///    piece are absent from the result. Surplus pieces go to the last variable (an exploded
    ///    variable elsewhere takes one piece): if it is exploded (*) its members are decoded and
    ///    joined with ','; if not, only where the separator can occur unencoded in an expanded
    ///    value (',' for none/+/#, '.' for '.'), and the text is decoded as a whole; otherwise
    ///    there is no match. Hence {/path*} matches "/a/b/c" as path = "a,b,c", and {.ext}
    ///    matches ".tar.gz" as ext = "tar.gz". For {var} and {+var} an empty match gives "".
    ///  - {;a,b} {?a,b} {&a,b}: name=value pairs (or a bare name, meaning an empty value) in any
    ///    order; every name must be one of the expression's variables (compared as written in
    ///    the template, not decoded); absent variables are simply absent. A {?..} expression
    ///    followed directly by {&..} expressions, and adjacent {;..} expressions, form one set of
    ///    pairs in any order. Values of a repeated exploded name ({?list*}) are joined with ','.
    ///    Exploded associative arrays (pairs whose names are the keys) cannot be recovered and
    ///    do not match.
    ///  - A prefix modifier (:N) limits the decoded value to N code points.
    /// Ambiguity: expressions are matched lazily from the left: each takes the shortest
    /// non-empty text that lets the rest of the template match, and matches nothing (its
    /// variables undefined, or "" for {var} / {+var}) only if no non-empty text does. So
    /// "{name}{.ext}" matches "a.tar.gz" as name = "a", ext = "tar.gz"; "{a}-{b}" matches "x-y-z"
    /// as a = "x", b = "y-z"; "{+path}{?q}" leaves the query to {?q}; "{/a}{/b}" matches "/x" as
    /// a = "x"; "{+path}/{file}" matches "a/b/c" as path = "a/b" ({file} cannot span '/').
    /// A variable that appears several times must decode to the same value everywhere (an
    /// appearance with a prefix modifier must be a prefix of it), otherwise there is no match;
    /// this check does not make the matcher try another split.
    /// Cost: O(uri.size()) for ordinary templates. Work is capped at a budget proportional to
    /// uri.size(); a pathological template/URI pair (several adjacent expressions that can
    /// span the same long text, forcing heavy backtracking) that exceeds it does not match.
    std::optional<std::map<std::string, std::string>> match(std::string_view uri) const;

private:
    struct varspec {
        std::size_t name_pos = 0, name_len = 0; ///< the name, within text_
        std::uint16_t prefix = 0;               ///< :N, 0 if none
        bool explode = false;                   ///< *
    };
    struct part {
        bool expression = false;
        char op = 0;                            ///< expression operator, 0 for none
        std::size_t offset = 0;                 ///< where the literal or '{' starts in text_
        std::size_t raw_len = 0;                ///< literal: its length in text_
        std::size_t enc_pos = 0, enc_len = 0;   ///< literal: expanded (encoded) form, within encoded_
        std::size_t first_var = 0, end_var = 0; ///< expression: its varspecs
    };
    /// One step of matching: a literal, or one expression, or adjacent query / path-parameter
    /// expressions merged so that their pairs may come in any order.
    struct match_unit {
        bool literal = false;
        std::size_t part = 0; ///< first part of the unit
        char op = 0;          ///< operator of the first expression
        char alt_first = 0;   ///< a second accepted leading character ('&' after a merged '?')
        std::size_t first_var = 0, end_var = 0;
    };
    class parser;
    class expander;
    class matcher;

    std::string_view name_of(const varspec& v) const noexcept {
        return {text_.data() + v.name_pos, v.name_len};
    }

    std::string text_;
    std::string encoded_; ///< literals as expansion writes them, concatenated
    std::vector<part> parts_;
    std::vector<varspec> vars_;
    std::vector<match_unit> units_;
};

} // namespace mcp
