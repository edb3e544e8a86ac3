// mcp/schema/validator.hpp - JSON Schema validation (draft 2020-12 and draft-07).
//
// A schema is compiled once into an immutable tree of nodes (references pre-resolved, property
// maps pre-built, regular expressions precompiled); a compiled `validator` is cheap to copy
// (shared immutable state) and safe to use from many threads at once.
//
//     auto v = mcp::schema::validator::compile(mcp::json::parse(R"({"type":"object",
//                   "properties":{"city":{"type":"string"}}, "required":["city"]})"));
//     v.is_valid(args);                       // fast path: no error collection
//     for (auto& e : v.validate(args))        // readable errors with JSON pointers
//         std::cerr << e.instance_location << ": " << e.message << '\n';
//
// Remote schemas are never fetched: a `$ref` to a URI that is neither inside the compiled
// document, nor added to a `schema_registry`, nor one of the two built-in meta-schemas
// (https://json-schema.org/draft/2020-12/schema and http://json-schema.org/draft-07/schema#)
// is a compile_error.
//
// Numbers are compared exactly (an integer against a double too) and multipleOf works on the
// decimal values (19.99 is a multiple of 0.01). Integers beyond 64 bits reach us from Boost.JSON
// as doubles and keep only double precision.
//
// `pattern` is ECMA-262 (unicode mode) on PCRE2, matched code point by code point, never taking
// exponential time; back-references and variable-width lookbehind are refused with a
// compile_error (docs/design.md lists every difference from ECMA-262).
#pragma once

#include <mcp/json/json.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::schema {

/// The dialects understood. A schema's `$schema` keyword wins over compile_options::default_dialect.
enum class dialect { draft2020_12, draft07 };

/// Thrown by validator::compile for a malformed schema, an unsupported `$schema`, or a `$ref`
/// that cannot be resolved. The message names the offending location.
class compile_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// One failed assertion.
struct validation_error {
    std::string instance_location; ///< JSON pointer into the instance ("" = the root, "/city").
    std::string keyword_location;  ///< JSON pointer of the failing keyword in its schema document
                                   ///< (prefixed by the document URI when it is not the root one).
    std::string keyword;           ///< "type", "required", ...
    std::string message;           ///< e.g. "expected string, got integer".
};

/// Schemas that `$ref` may reach by URI. The only source of remote schemas (nothing is fetched).
/// Add documents before compiling; the registry must outlive the `compile` call only (compiled
/// validators keep their own copies of what they use).
class schema_registry {
public:
    /// Register `schema` under the absolute URI `uri` (a trailing empty fragment "#" is ignored).
    /// A document's own `$id` values are discovered when it is loaded; `uri` is its retrieval URI.
    void add(std::string uri, json::value schema);
    /// The document registered under `uri`, or nullptr.
    const json::value* find(std::string_view uri) const noexcept;

private:
    std::map<std::string, json::value, std::less<>> docs_;
};

struct compile_options {
    /// Dialect of a schema without `$schema`.
    dialect default_dialect = dialect::draft2020_12;
    /// Make `format` an assertion (email, uri, uri-reference, iri, date, time, date-time,
    /// duration, ipv4, ipv6, hostname, uuid, regex, json-pointer, relative-json-pointer,
    /// uri-template). By default `format` is an annotation only, as both drafts specify.
    bool assert_format = false;
    /// Where `$ref` finds documents other than the one being compiled. May be null.
    const schema_registry* registry = nullptr;
};

namespace detail {
struct compiled_schema;
}

class validator {
public:
    /// Compile `schema` (an object or a boolean). Throws compile_error.
    static validator compile(const json::value& schema, const compile_options& options = {});
    /// Compile the subschema at `json_pointer` (e.g. "/$defs/JSONRPCRequest") inside
    /// `root_document`; references inside it resolve against the whole document, so this is how
    /// one validates a message against one definition of the MCP schema. Throws compile_error,
    /// also when the pointer does not resolve.
    static validator compile_ref(const json::value& root_document, std::string_view json_pointer,
                                 const compile_options& options = {});

    /// True when `instance` is valid. Stops at the first failure; allocates nothing in the
    /// common case.
    bool is_valid(const json::value& instance) const;
    /// The failed assertions (at most `max_errors`); empty when valid. Applicators that combine
    /// alternatives (anyOf, oneOf, not, if) report one error for the combination, plus the
    /// errors of the closest alternative for anyOf/oneOf.
    std::vector<validation_error> validate(const json::value& instance, std::size_t max_errors = 16) const;

    /// The dialect the root schema was compiled in.
    dialect root_dialect() const noexcept;

private:
    explicit validator(std::shared_ptr<const detail::compiled_schema> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<const detail::compiled_schema> impl_;
};

/// Format checks used when compile_options::assert_format is set; exposed because other layers
/// (e.g. URI templates, elicitation) want the same definitions. `format` is one of the names
/// listed in compile_options::assert_format; an unknown format name returns true.
bool check_format(std::string_view format, std::string_view value);
/// True when `format` names a format check_format knows.
bool is_known_format(std::string_view format) noexcept;

} // namespace mcp::schema
