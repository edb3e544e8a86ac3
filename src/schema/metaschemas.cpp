// schema/metaschemas.cpp - the meta-schemas of draft 2020-12 and draft-07, built in so that
// `{"$ref": "https://json-schema.org/draft/2020-12/schema"}` resolves without a network.
//
// Choice: the JSON-Schema-Test-Suite does not ship them (its remotes/ has only test fixtures),
// and nothing may be downloaded, so they are written here by hand from the structure the two
// specifications publish: same URIs, same vocabulary split (2020-12: core, applicator,
// unevaluated, validation, meta-data, format-annotation, content; tied together with
// $dynamicAnchor "meta" so extensions work), same constraints. Descriptive-only members
// (titles, $comments) are left out.
#include "schema/node.hpp"

#include <string_view>
#include <utility>

namespace mcp::schema::detail {
namespace {

constexpr std::string_view schema_2020_12 = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/schema",
  "$vocabulary": {
    "https://json-schema.org/draft/2020-12/vocab/core": true,
    "https://json-schema.org/draft/2020-12/vocab/applicator": true,
    "https://json-schema.org/draft/2020-12/vocab/unevaluated": true,
    "https://json-schema.org/draft/2020-12/vocab/validation": true,
    "https://json-schema.org/draft/2020-12/vocab/meta-data": true,
    "https://json-schema.org/draft/2020-12/vocab/format-annotation": true,
    "https://json-schema.org/draft/2020-12/vocab/content": true
  },
  "$dynamicAnchor": "meta",
  "allOf": [
    {"$ref": "meta/core"}, {"$ref": "meta/applicator"}, {"$ref": "meta/unevaluated"},
    {"$ref": "meta/validation"}, {"$ref": "meta/meta-data"}, {"$ref": "meta/format-annotation"},
    {"$ref": "meta/content"}
  ],
  "type": ["object", "boolean"],
  "properties": {
    "definitions": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}, "default": {}},
    "dependencies": {
      "type": "object",
      "additionalProperties": {"anyOf": [{"$dynamicRef": "#meta"}, {"$ref": "meta/validation#/$defs/stringArray"}]}
    },
    "$recursiveAnchor": {"$ref": "meta/core#/$defs/anchorString"},
    "$recursiveRef": {"$ref": "meta/core#/$defs/uriReferenceString"}
  }
})";

constexpr std::string_view meta_core = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/core",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "$id": {"$ref": "#/$defs/uriReferenceString", "pattern": "^[^#]*#?$"},
    "$schema": {"$ref": "#/$defs/uriString"},
    "$ref": {"$ref": "#/$defs/uriReferenceString"},
    "$anchor": {"$ref": "#/$defs/anchorString"},
    "$dynamicRef": {"$ref": "#/$defs/uriReferenceString"},
    "$dynamicAnchor": {"$ref": "#/$defs/anchorString"},
    "$vocabulary": {
      "type": "object",
      "propertyNames": {"$ref": "#/$defs/uriString"},
      "additionalProperties": {"type": "boolean"}
    },
    "$comment": {"type": "string"},
    "$defs": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}}
  },
  "$defs": {
    "anchorString": {"type": "string", "pattern": "^[A-Za-z_][-A-Za-z0-9._]*$"},
    "uriString": {"type": "string", "format": "uri"},
    "uriReferenceString": {"type": "string", "format": "uri-reference"}
  }
})";

constexpr std::string_view meta_applicator = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/applicator",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "prefixItems": {"$ref": "#/$defs/schemaArray"},
    "items": {"$dynamicRef": "#meta"},
    "contains": {"$dynamicRef": "#meta"},
    "additionalProperties": {"$dynamicRef": "#meta"},
    "properties": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}, "default": {}},
    "patternProperties": {
      "type": "object",
      "additionalProperties": {"$dynamicRef": "#meta"},
      "propertyNames": {"format": "regex"},
      "default": {}
    },
    "dependentSchemas": {"type": "object", "additionalProperties": {"$dynamicRef": "#meta"}, "default": {}},
    "propertyNames": {"$dynamicRef": "#meta"},
    "if": {"$dynamicRef": "#meta"},
    "then": {"$dynamicRef": "#meta"},
    "else": {"$dynamicRef": "#meta"},
    "allOf": {"$ref": "#/$defs/schemaArray"},
    "anyOf": {"$ref": "#/$defs/schemaArray"},
    "oneOf": {"$ref": "#/$defs/schemaArray"},
    "not": {"$dynamicRef": "#meta"}
  },
  "$defs": {
    "schemaArray": {"type": "array", "minItems": 1, "items": {"$dynamicRef": "#meta"}}
  }
})";

constexpr std::string_view meta_unevaluated = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/unevaluated",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "unevaluatedItems": {"$dynamicRef": "#meta"},
    "unevaluatedProperties": {"$dynamicRef": "#meta"}
  }
})";

constexpr std::string_view meta_validation = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/validation",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "type": {
      "anyOf": [
        {"$ref": "#/$defs/simpleTypes"},
        {"type": "array", "items": {"$ref": "#/$defs/simpleTypes"}, "minItems": 1, "uniqueItems": true}
      ]
    },
    "const": true,
    "enum": {"type": "array", "items": true},
    "multipleOf": {"type": "number", "exclusiveMinimum": 0},
    "maximum": {"type": "number"},
    "exclusiveMaximum": {"type": "number"},
    "minimum": {"type": "number"},
    "exclusiveMinimum": {"type": "number"},
    "maxLength": {"$ref": "#/$defs/nonNegativeInteger"},
    "minLength": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
    "pattern": {"type": "string", "format": "regex"},
    "maxItems": {"$ref": "#/$defs/nonNegativeInteger"},
    "minItems": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
    "uniqueItems": {"type": "boolean", "default": false},
    "maxContains": {"$ref": "#/$defs/nonNegativeInteger"},
    "minContains": {"$ref": "#/$defs/nonNegativeInteger", "default": 1},
    "maxProperties": {"$ref": "#/$defs/nonNegativeInteger"},
    "minProperties": {"$ref": "#/$defs/nonNegativeIntegerDefault0"},
    "required": {"$ref": "#/$defs/stringArray"},
    "dependentRequired": {"type": "object", "additionalProperties": {"$ref": "#/$defs/stringArray"}}
  },
  "$defs": {
    "nonNegativeInteger": {"type": "integer", "minimum": 0},
    "nonNegativeIntegerDefault0": {"$ref": "#/$defs/nonNegativeInteger", "default": 0},
    "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
    "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "default": []}
  }
})";

constexpr std::string_view meta_meta_data = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/meta-data",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "title": {"type": "string"},
    "description": {"type": "string"},
    "default": true,
    "deprecated": {"type": "boolean", "default": false},
    "readOnly": {"type": "boolean", "default": false},
    "writeOnly": {"type": "boolean", "default": false},
    "examples": {"type": "array", "items": true}
  }
})";

constexpr std::string_view meta_format_annotation = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/format-annotation",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {"format": {"type": "string"}}
})";

constexpr std::string_view meta_content = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://json-schema.org/draft/2020-12/meta/content",
  "$dynamicAnchor": "meta",
  "type": ["object", "boolean"],
  "properties": {
    "contentEncoding": {"type": "string"},
    "contentMediaType": {"type": "string"},
    "contentSchema": {"$dynamicRef": "#meta"}
  }
})";

constexpr std::string_view schema_draft07 = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "http://json-schema.org/draft-07/schema#",
  "definitions": {
    "schemaArray": {"type": "array", "minItems": 1, "items": {"$ref": "#"}},
    "nonNegativeInteger": {"type": "integer", "minimum": 0},
    "nonNegativeIntegerDefault0": {"allOf": [{"$ref": "#/definitions/nonNegativeInteger"}, {"default": 0}]},
    "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
    "stringArray": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "default": []}
  },
  "type": ["object", "boolean"],
  "properties": {
    "$id": {"type": "string", "format": "uri-reference"},
    "$schema": {"type": "string", "format": "uri"},
    "$ref": {"type": "string", "format": "uri-reference"},
    "$comment": {"type": "string"},
    "title": {"type": "string"},
    "description": {"type": "string"},
    "default": true,
    "readOnly": {"type": "boolean", "default": false},
    "writeOnly": {"type": "boolean", "default": false},
    "examples": {"type": "array", "items": true},
    "multipleOf": {"type": "number", "exclusiveMinimum": 0},
    "maximum": {"type": "number"},
    "exclusiveMaximum": {"type": "number"},
    "minimum": {"type": "number"},
    "exclusiveMinimum": {"type": "number"},
    "maxLength": {"$ref": "#/definitions/nonNegativeInteger"},
    "minLength": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "pattern": {"type": "string", "format": "regex"},
    "additionalItems": {"$ref": "#"},
    "items": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/schemaArray"}], "default": true},
    "maxItems": {"$ref": "#/definitions/nonNegativeInteger"},
    "minItems": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "uniqueItems": {"type": "boolean", "default": false},
    "contains": {"$ref": "#"},
    "maxProperties": {"$ref": "#/definitions/nonNegativeInteger"},
    "minProperties": {"$ref": "#/definitions/nonNegativeIntegerDefault0"},
    "required": {"$ref": "#/definitions/stringArray"},
    "additionalProperties": {"$ref": "#"},
    "definitions": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
    "properties": {"type": "object", "additionalProperties": {"$ref": "#"}, "default": {}},
    "patternProperties": {
      "type": "object",
      "additionalProperties": {"$ref": "#"},
      "propertyNames": {"format": "regex"},
      "default": {}
    },
    "dependencies": {
      "type": "object",
      "additionalProperties": {"anyOf": [{"$ref": "#"}, {"$ref": "#/definitions/stringArray"}]}
    },
    "propertyNames": {"$ref": "#"},
    "const": true,
    "enum": {"type": "array", "items": true},
    "type": {
      "anyOf": [
        {"$ref": "#/definitions/simpleTypes"},
        {"type": "array", "items": {"$ref": "#/definitions/simpleTypes"}, "minItems": 1, "uniqueItems": true}
      ]
    },
    "format": {"type": "string"},
    "contentMediaType": {"type": "string"},
    "contentEncoding": {"type": "string"},
    "if": {"$ref": "#"},
    "then": {"$ref": "#"},
    "else": {"$ref": "#"},
    "allOf": {"$ref": "#/definitions/schemaArray"},
    "anyOf": {"$ref": "#/definitions/schemaArray"},
    "oneOf": {"$ref": "#/definitions/schemaArray"},
    "not": {"$ref": "#"}
  },
  "default": true
})";

struct builtin {
    std::string_view uri;
    std::string_view text;
};

constexpr builtin builtins[] = {
    {"https://json-schema.org/draft/2020-12/schema", schema_2020_12},
    {"https://json-schema.org/draft/2020-12/meta/core", meta_core},
    {"https://json-schema.org/draft/2020-12/meta/applicator", meta_applicator},
    {"https://json-schema.org/draft/2020-12/meta/unevaluated", meta_unevaluated},
    {"https://json-schema.org/draft/2020-12/meta/validation", meta_validation},
    {"https://json-schema.org/draft/2020-12/meta/meta-data", meta_meta_data},
    {"https://json-schema.org/draft/2020-12/meta/format-annotation", meta_format_annotation},
    {"https://json-schema.org/draft/2020-12/meta/content", meta_content},
    {"http://json-schema.org/draft-07/schema", schema_draft07},
};

} // namespace

const json::value* builtin_metaschema(std::string_view uri) {
    // Parsed once, on first use (thread-safe static initialization), then immutable.
    static const std::vector<std::pair<std::string_view, json::value>> parsed = [] {
        std::vector<std::pair<std::string_view, json::value>> v;
        for (const auto& b : builtins) v.emplace_back(b.uri, json::parse(b.text));
        return v;
    }();
    if (!uri.empty() && uri.back() == '#') uri.remove_suffix(1);
    for (const auto& [u, doc] : parsed)
        if (u == uri) return &doc;
    return nullptr;
}

} // namespace mcp::schema::detail
