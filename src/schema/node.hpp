// schema/node.hpp - the compiled form of a JSON Schema: one `node` per (sub)schema, with every
// keyword pre-digested into the representation the evaluator wants. Private to src/schema.
#pragma once

#include <mcp/schema/validator.hpp>

#include "schema/regex.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcp::schema::detail {

/// Bits of the "type" keyword. integer is a subset of number (a 1.0 double is an integer).
enum type_bit : std::uint8_t {
    t_null = 1,
    t_boolean = 2,
    t_integer = 4,
    t_number = 8,
    t_string = 16,
    t_array = 32,
    t_object = 64,
};

struct resource;

struct node {
    // ---- identity ----
    std::string location;          // keyword_location prefix ("" for the root, "/properties/a")
    const resource* res = nullptr; // schema resource this node belongs to (dynamic scope)
    bool is_bool = false;          // a boolean schema
    bool bool_value = true;

    // ---- draft-07: a $ref replaces every sibling ----
    // (compiled as a node with only `ref` set)

    // ---- type / value ----
    std::uint8_t types = 0; // 0 = no "type" keyword
    std::optional<json::value> const_value;
    std::vector<json::value> enum_values;
    bool has_enum = false;

    // ---- numbers ----
    std::optional<json::value> minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of;

    // ---- strings ----
    std::optional<std::size_t> min_length, max_length;
    std::unique_ptr<compiled_regex> pattern;
    std::string format; // asserted only when format_assert is set
    bool format_assert = false;

    // ---- arrays ----
    std::vector<const node*> prefix_items; // prefixItems, or draft-07 array-form items
    const node* items = nullptr;           // applies to indices >= prefix_items.size()
    const node* contains = nullptr;
    std::optional<std::size_t> min_contains, max_contains; // 2020-12 only
    std::optional<std::size_t> min_items, max_items;
    bool unique_items = false;

    // ---- objects ----
    std::vector<std::pair<std::string, const node*>> properties; // sorted by key
    std::vector<std::pair<std::unique_ptr<compiled_regex>, const node*>> pattern_properties;
    const node* additional_properties = nullptr;
    const node* property_names = nullptr;
    std::vector<std::string> required;
    std::vector<std::pair<std::string, std::vector<std::string>>> dependent_required;
    std::vector<std::pair<std::string, const node*>> dependent_schemas;
    std::optional<std::size_t> min_properties, max_properties;

    // ---- in-place applicators ----
    std::vector<const node*> all_of, any_of, one_of;
    const node* not_ = nullptr;
    const node* if_ = nullptr;
    const node* then_ = nullptr;
    const node* else_ = nullptr;
    const node* ref = nullptr;
    const node* dynamic_ref = nullptr; // the statically resolved target
    std::string dynamic_anchor_name;   // non-empty: search the dynamic scope for this anchor

    // ---- unevaluated (2020-12) ----
    const node* unevaluated_properties = nullptr;
    const node* unevaluated_items = nullptr;

    /// Some keyword needs the instance to be an object / array / string / number; lets the
    /// evaluator skip whole groups quickly.
    bool has_object_kw = false, has_array_kw = false, has_string_kw = false, has_number_kw = false;
    bool has_applicators = false;

    const node* find_property(std::string_view key) const noexcept;
};

/// A schema resource (a document root or a subschema with `$id`): the unit of the dynamic scope.
struct resource {
    std::string uri;
    std::vector<std::pair<std::string, const node*>> dynamic_anchors; // $dynamicAnchor name -> node
};

struct compiled_schema {
    std::deque<node> nodes; // stable addresses
    std::deque<resource> resources;
    const node* root = nullptr;
    dialect root_dialect = dialect::draft2020_12;
    bool uses_dynamic_ref = false;
};

/// Evaluation entry points (evaluate.cpp).
bool evaluate_fast(const compiled_schema& s, const json::value& instance);
std::vector<validation_error> evaluate_collect(const compiled_schema& s, const json::value& instance,
                                               std::size_t max_errors);

/// Built-in meta-schemas (metaschemas.cpp): the document for a known URI, else nullptr.
const json::value* builtin_metaschema(std::string_view uri);

/// JSON equality as JSON Schema defines it (1 == 1.0, objects unordered).
bool json_equal(const json::value& a, const json::value& b) noexcept;

} // namespace mcp::schema::detail
