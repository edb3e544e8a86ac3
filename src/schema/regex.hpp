// schema/regex.hpp - `pattern`, `patternProperties` and the `regex` format: ECMA-262 patterns
// compiled once with PCRE2 (regex.cpp says how close to ECMA-262, docs/design.md what differs).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

struct pcre2_real_code_8;

namespace mcp::schema::detail {

/// A refused pattern; what() says why ("uses back-references, ...", "nests groups more than 128
/// deep", "is not a valid regular expression: ...").
struct regex_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class regex_use {
    matching,    ///< `pattern`, `patternProperties`: back-references refused
    syntax_check ///< the `regex` format: compile only, never match
};

class compiled_regex {
public:
    /// Throws regex_error when the pattern is not ECMA-262 as far as we check, or PCRE2 refuses it.
    explicit compiled_regex(std::string_view source, regex_use use = regex_use::matching);
    ~compiled_regex();
    compiled_regex(const compiled_regex&) = delete;
    compiled_regex& operator=(const compiled_regex&) = delete;

    /// Does the pattern match somewhere in `text` (UTF-8, matched by code point)? Thread-safe.
    bool search(std::string_view text) const;

    const std::string source; ///< as written in the schema
private:
    pcre2_real_code_8* code_ = nullptr;
};

inline std::unique_ptr<compiled_regex> compile_regex(std::string_view source) {
    return std::make_unique<compiled_regex>(source);
}

/// The `regex` format: a valid ECMA-262 pattern as far as PCRE2 and our checks tell.
bool is_valid_regex(std::string_view source);

} // namespace mcp::schema::detail
