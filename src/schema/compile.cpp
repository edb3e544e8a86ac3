// schema/compile.cpp - turns schema documents into the node tree the evaluator walks.
//
// Two passes per document. `scan` walks the subschema positions (only keywords whose values are
// schemas, so a "$id" inside "const" or a property named "$ref" is never mistaken for one) and
// records, for every subschema, its base URI, dialect and resource, plus the URIs of resources,
// $anchor and $dynamicAnchor. `compile_node` then builds nodes lazily from the root, resolving
// each $ref to a node pointer once; a node is registered before its children are compiled, so
// reference cycles become pointer cycles instead of infinite recursion.
#include "schema/node.hpp"
#include "schema/regex.hpp"
#include "schema/uri.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace mcp::schema {
namespace detail {
namespace {

constexpr std::string_view uri_2020_12 = "https://json-schema.org/draft/2020-12/schema";
constexpr std::string_view uri_draft07 = "http://json-schema.org/draft-07/schema";
constexpr std::size_t max_compile_depth = 512;

struct vocabularies {
    bool applicator = true, validation = true, unevaluated = true, format_assertion = false;
};

struct schema_info {
    std::string base;     // absolute base URI (no fragment)
    std::string location; // keyword_location prefix of this subschema
    dialect d = dialect::draft2020_12;
    vocabularies voc;
    resource* res = nullptr;
};

std::string strip_empty_fragment(std::string uri) {
    if (!uri.empty() && uri.back() == '#') uri.pop_back();
    return uri;
}

std::optional<dialect> known_dialect(std::string_view uri) {
    std::string u = strip_empty_fragment(std::string(uri));
    if (u == uri_2020_12) return dialect::draft2020_12;
    if (u == uri_draft07 || u == "https://json-schema.org/draft-07/schema") return dialect::draft07;
    return std::nullopt;
}

bool is_older_or_other_draft(std::string_view uri) {
    return uri.find("json-schema.org/draft-0") != std::string_view::npos ||
           uri.find("json-schema.org/schema") != std::string_view::npos ||
           uri.find("json-schema.org/draft/2019-09") != std::string_view::npos ||
           uri.find("json-schema.org/draft/next") != std::string_view::npos;
}

class compiler {
public:
    compiler(compiled_schema& out, const compile_options& opt) : out_(out), opt_(opt) {}

    /// Scan the root document and return the node for `pointer` inside it.
    const node* compile_root(const json::value& doc, std::string_view pointer) {
        schema_info start;
        start.d = opt_.default_dialect;
        scan_document(doc, "", start);
        const json::value* target = &doc;
        const schema_info* target_info = &info_.at(&doc);
        if (!pointer.empty()) {
            auto [t, inf] = walk_pointer(doc, pointer, "", std::string(pointer));
            target = t;
            target_info = inf;
        }
        out_.root_dialect = target_info->d;
        const node* root = compile_node(*target, *target_info, 0);
        compile_dynamic_anchors();
        return root;
    }

private:
    compiled_schema& out_;
    const compile_options& opt_;
    std::unordered_map<const json::value*, schema_info> info_;
    std::unordered_map<std::string, const json::value*> resources_; // absolute URI -> resource root
    std::unordered_map<std::string, const json::value*> anchors_;   // "uri#name" -> subschema
    std::unordered_map<std::string, bool> dynamic_anchor_keys_;     // "uri#name" is a $dynamicAnchor
    std::vector<std::pair<resource*, std::pair<std::string, const json::value*>>> pending_dynamic_;
    std::unordered_map<const json::value*, node*> compiled_;
    std::unordered_map<std::string, bool> loaded_;

    [[noreturn]] static void fail(const std::string& where, const std::string& what) {
        throw compile_error("invalid schema at '" + where + "': " + what);
    }

    // ------------------------------------------------------------------ dialects / vocabularies

    void apply_schema_keyword(const json::object& o, schema_info& si) {
        auto it = o.find("$schema");
        if (it == o.end()) return;
        if (!it->value().is_string()) fail(si.location, "$schema must be a string");
        std::string_view uri = it->value().get_string();
        if (auto d = known_dialect(uri)) {
            si.d = *d;
            si.voc = {};
            return;
        }
        if (is_older_or_other_draft(uri))
            throw compile_error("unsupported $schema '" + std::string(uri) +
                                "': mcpxx validates draft 2020-12 and draft-07 only");
        // A custom meta-schema: only from the registry; it names its dialect and vocabularies.
        const json::value* meta =
            opt_.registry ? opt_.registry->find(strip_empty_fragment(std::string(uri))) : nullptr;
        if (!meta || !meta->is_object())
            throw compile_error("unsupported $schema '" + std::string(uri) +
                                "': not a known dialect and not in the schema registry");
        const auto& mo = meta->get_object();
        si.d = dialect::draft2020_12;
        if (auto ms = mo.find("$schema"); ms != mo.end() && ms->value().is_string()) {
            auto d = known_dialect(ms->value().get_string());
            if (!d) throw compile_error("unsupported meta-schema chain at '" + std::string(uri) + "'");
            si.d = *d;
        }
        si.voc = {};
        if (auto v = mo.find("$vocabulary"); v != mo.end() && v->value().is_object()) {
            vocabularies voc{false, false, false, false};
            for (const auto& [k, req] : v->value().get_object()) {
                std::string_view key = k;
                constexpr std::string_view prefix = "https://json-schema.org/draft/2020-12/vocab/";
                std::string_view name =
                    key.substr(0, prefix.size()) == prefix ? key.substr(prefix.size()) : "";
                if (name == "applicator")
                    voc.applicator = true;
                else if (name == "validation")
                    voc.validation = true;
                else if (name == "unevaluated")
                    voc.unevaluated = true;
                else if (name == "format-assertion")
                    voc.format_assertion = true;
                else if (name == "core" || name == "meta-data" || name == "format-annotation" ||
                         name == "content") {
                } else if (req.is_bool() && req.get_bool()) {
                    throw compile_error("meta-schema '" + std::string(uri) +
                                        "' requires unknown vocabulary '" + std::string(key) + "'");
                }
            }
            si.voc = voc;
        }
    }

    // ------------------------------------------------------------------ scanning

    void scan_document(const json::value& doc, const std::string& retrieval_uri, const schema_info& parent) {
        schema_info si = parent;
        si.base = retrieval_uri;
        si.location = retrieval_uri.empty() ? "" : retrieval_uri + "#";
        si.res = nullptr;
        scan(doc, si, true, 0);
        if (!retrieval_uri.empty() && !resources_.count(retrieval_uri)) resources_[retrieval_uri] = &doc;
    }

    resource* new_resource(const std::string& uri) {
        out_.resources.push_back(resource{uri, {}});
        return &out_.resources.back();
    }

    void scan(const json::value& v, schema_info si, bool document_root, std::size_t depth) {
        if (depth > max_compile_depth) fail(si.location, "schema nesting too deep");
        if (info_.count(&v)) return;
        if (!v.is_object()) {
            if (document_root) si.res = new_resource(si.base), resources_.emplace(si.base, &v);
            info_.emplace(&v, si);
            return;
        }
        const auto& o = v.get_object();
        auto id_it = o.find("$id");
        bool has_id = id_it != o.end() && id_it->value().is_string();
        if (document_root || has_id) apply_schema_keyword(o, si);
        bool draft07 = si.d == dialect::draft07;
        bool new_res = document_root;
        if (has_id && !(draft07 && o.contains("$ref"))) {
            std::string_view id = id_it->value().get_string();
            std::string abs = resolve_uri(si.base, id);
            auto [res_uri, frag] = split_fragment(abs);
            std::string r(res_uri);
            if (draft07 && !id.empty() && id.front() == '#') {
                anchors_[si.base + "#" + std::string(frag)] = &v; // draft-07 location-independent id
            } else {
                if (!frag.empty()) {
                    if (!draft07) fail(si.location, "$id must not contain a non-empty fragment");
                    anchors_[r + "#" + std::string(frag)] = &v;
                }
                si.base = r;
                new_res = true;
            }
        }
        if (new_res) {
            si.res = new_resource(si.base);
            resources_.emplace(si.base, &v);
        }
        if (!draft07) {
            if (auto a = o.find("$anchor"); a != o.end() && a->value().is_string())
                anchors_[si.base + "#" + std::string(a->value().get_string())] = &v;
            if (auto a = o.find("$dynamicAnchor"); a != o.end() && a->value().is_string()) {
                std::string name(a->value().get_string());
                anchors_.emplace(si.base + "#" + name, &v);
                dynamic_anchor_keys_[si.base + "#" + name] = true;
                pending_dynamic_.push_back({si.res, {name, &v}});
            }
        }
        info_.emplace(&v, si);

        auto child = [&](std::string_view kw) {
            schema_info ci = si;
            ci.location += '/';
            append_pointer_token(ci.location, kw);
            return ci;
        };
        for (const auto& [key, val] : o) {
            std::string_view k = key;
            if (k == "additionalProperties" || k == "not" || k == "if" || k == "then" || k == "else" ||
                k == "contains" || k == "propertyNames" || k == "additionalItems" ||
                k == "unevaluatedProperties" || k == "unevaluatedItems" ||
                (k == "items" && val.is_object())) {
                scan(val, child(k), false, depth + 1);
            } else if (k == "allOf" || k == "anyOf" || k == "oneOf" || k == "prefixItems" || k == "items") {
                if (!val.is_array()) continue;
                std::size_t i = 0;
                for (const auto& e : val.get_array()) {
                    schema_info ci = child(k);
                    ci.location += '/' + std::to_string(i++);
                    scan(e, ci, false, depth + 1);
                }
            } else if (k == "properties" || k == "patternProperties" || k == "$defs" || k == "definitions" ||
                       k == "dependentSchemas" || k == "dependencies") {
                if (!val.is_object()) continue;
                for (const auto& [pk, pv] : val.get_object()) {
                    if (!pv.is_object() && !pv.is_bool()) continue; // dependencies: arrays are not schemas
                    schema_info ci = child(k);
                    ci.location += '/';
                    append_pointer_token(ci.location, pk);
                    scan(pv, ci, false, depth + 1);
                }
            }
        }
    }

    // ------------------------------------------------------------------ references

    std::pair<const json::value*, const schema_info*> walk_pointer(const json::value& root,
                                                                   std::string_view frag,
                                                                   const std::string& where,
                                                                   const std::string& ref) {
        auto decoded = percent_decode(frag);
        if (!decoded) fail(where, "malformed percent-encoding in $ref '" + ref + "'");
        auto tokens = parse_json_pointer(*decoded);
        if (!tokens) fail(where, "malformed JSON pointer in $ref '" + ref + "'");
        const json::value* cur = &root;
        const schema_info* last = &info_.at(&root);
        for (const auto& t : *tokens) {
            if (cur->is_object()) {
                auto it = cur->get_object().find(t);
                if (it == cur->get_object().end()) fail(where, "$ref '" + ref + "' does not resolve");
                cur = &it->value();
            } else if (cur->is_array()) {
                if (t.empty() || t.size() > 9 ||
                    !std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }))
                    fail(where, "$ref '" + ref + "' does not resolve");
                auto idx = std::stoul(t);
                if (idx >= cur->get_array().size()) fail(where, "$ref '" + ref + "' does not resolve");
                cur = &cur->get_array()[idx];
            } else {
                fail(where, "$ref '" + ref + "' does not resolve");
            }
            if (auto it = info_.find(cur); it != info_.end()) last = &it->second;
        }
        if (!info_.count(cur)) {
            // A location no keyword declares a schema (e.g. inside an unknown keyword): scan it
            // now with the base URI of the closest known ancestor.
            schema_info si = *last;
            si.location = ref;
            scan(*cur, si, false, 0);
        }
        return {cur, &info_.at(cur)};
    }

    struct ref_target {
        const json::value* value;
        const schema_info* info;
        bool via_dynamic_anchor;
        std::string anchor;
    };

    ref_target resolve_ref(std::string_view ref, const schema_info& from) {
        std::string abs = resolve_uri(from.base, ref);
        auto [res_sv, frag] = split_fragment(abs);
        std::string res_uri(res_sv);
        auto it = resources_.find(res_uri);
        if (it == resources_.end()) {
            load_remote(res_uri, from);
            it = resources_.find(res_uri);
            if (it == resources_.end())
                throw compile_error("cannot resolve $ref '" + std::string(ref) + "' at '" + from.location +
                                    "': unknown schema '" + res_uri +
                                    "' (remote schemas are never fetched; add it to a schema_registry)");
        }
        const json::value& root = *it->second;
        if (frag.empty()) return {&root, &info_.at(&root), false, {}};
        if (frag.front() == '/' || frag.front() == '%') {
            auto [v, inf] = walk_pointer(root, frag, from.location, std::string(ref));
            return {v, inf, false, {}};
        }
        auto decoded = percent_decode(frag);
        std::string key = res_uri + "#" + decoded.value_or(std::string(frag));
        auto a = anchors_.find(key);
        if (a == anchors_.end())
            throw compile_error("cannot resolve $ref '" + std::string(ref) + "' at '" + from.location +
                                "': no anchor '" + std::string(frag) + "' in '" + res_uri + "'");
        return {a->second, &info_.at(a->second), dynamic_anchor_keys_.count(key) > 0,
                decoded.value_or(std::string(frag))};
    }

    void load_remote(const std::string& uri, const schema_info& from) {
        if (loaded_.count(uri)) return;
        loaded_[uri] = true;
        const json::value* doc = opt_.registry ? opt_.registry->find(uri) : nullptr;
        if (!doc) doc = builtin_metaschema(uri);
        if (!doc) return;
        schema_info si;
        si.d = from.d; // a remote document without $schema inherits the referrer's dialect
        scan_document(*doc, uri, si);
    }

    // ------------------------------------------------------------------ nodes

    static std::size_t get_count(const json::value& v, const std::string& where, std::string_view kw) {
        if (v.is_int64() && v.get_int64() >= 0) return static_cast<std::size_t>(v.get_int64());
        if (v.is_uint64()) return static_cast<std::size_t>(v.get_uint64());
        if (v.is_double() && v.get_double() >= 0 && std::floor(v.get_double()) == v.get_double() &&
            v.get_double() < 1e18)
            return static_cast<std::size_t>(v.get_double());
        fail(where, std::string(kw) + " must be a non-negative integer");
    }

    static std::vector<std::string> get_strings(const json::value& v, const std::string& where,
                                                std::string_view kw) {
        if (!v.is_array()) fail(where, std::string(kw) + " must be an array of strings");
        std::vector<std::string> out;
        for (const auto& e : v.get_array()) {
            if (!e.is_string()) fail(where, std::string(kw) + " must be an array of strings");
            out.emplace_back(e.get_string());
        }
        return out;
    }

    const node* child_node(const json::value& v, const schema_info& parent, std::size_t depth) {
        auto it = info_.find(&v);
        if (it == info_.end()) {
            schema_info si = parent;
            scan(v, si, false, depth);
            it = info_.find(&v);
        }
        return compile_node(v, it->second, depth + 1);
    }

    std::vector<const node*> child_array(const json::value& v, const schema_info& si, std::string_view kw,
                                         std::size_t depth) {
        if (!v.is_array() || v.get_array().empty())
            fail(si.location, std::string(kw) + " must be a non-empty array of schemas");
        std::vector<const node*> out;
        for (const auto& e : v.get_array()) out.push_back(child_node(e, si, depth));
        return out;
    }

    const node* compile_ref_keyword(const json::value& v, const schema_info& si, std::size_t depth,
                                    std::string_view kw) {
        if (!v.is_string()) fail(si.location, std::string(kw) + " must be a string");
        auto t = resolve_ref(v.get_string(), si);
        return compile_node(*t.value, *t.info, depth + 1);
    }

    static std::uint8_t type_bit_of(std::string_view t, const std::string& where) {
        if (t == "null") return t_null;
        if (t == "boolean") return t_boolean;
        if (t == "integer") return t_integer;
        if (t == "number") return t_number;
        if (t == "string") return t_string;
        if (t == "array") return t_array;
        if (t == "object") return t_object;
        fail(where, "unknown type '" + std::string(t) + "'");
    }

    const node* compile_node(const json::value& v, const schema_info& si, std::size_t depth) {
        if (auto it = compiled_.find(&v); it != compiled_.end()) return it->second;
        if (depth > max_compile_depth) fail(si.location, "schema nesting too deep");
        out_.nodes.emplace_back();
        node& n = out_.nodes.back();
        compiled_[&v] = &n;
        n.location = si.location;
        n.res = si.res;
        if (v.is_bool()) {
            n.is_bool = true;
            n.bool_value = v.get_bool();
            return &n;
        }
        if (!v.is_object()) fail(si.location, "a schema must be an object or a boolean");
        const auto& o = v.get_object();
        const bool d07 = si.d == dialect::draft07;
        const auto& voc = si.voc;

        if (d07) {
            if (auto r = o.find("$ref"); r != o.end()) { // draft-07: $ref makes siblings ignored
                n.ref = compile_ref_keyword(r->value(), si, depth, "$ref");
                n.has_applicators = true;
                return &n;
            }
        }
        for (const auto& [key, val] : o) {
            std::string_view k = key;
            const std::string& where = si.location;
            // ---- core ----
            if (k == "$ref") {
                n.ref = compile_ref_keyword(val, si, depth, "$ref");
                n.has_applicators = true;
            } else if (k == "$dynamicRef" && !d07) {
                if (!val.is_string()) fail(where, "$dynamicRef must be a string");
                auto t = resolve_ref(val.get_string(), si);
                n.dynamic_ref = compile_node(*t.value, *t.info, depth + 1);
                if (t.via_dynamic_anchor) n.dynamic_anchor_name = t.anchor;
                out_.uses_dynamic_ref = true;
                n.has_applicators = true;
            }
            // ---- validation vocabulary ----
            else if (voc.validation && (k == "type")) {
                if (val.is_string())
                    n.types = type_bit_of(val.get_string(), where);
                else if (val.is_array()) {
                    for (const auto& t : val.get_array()) {
                        if (!t.is_string()) fail(where, "type must be a string or an array of strings");
                        n.types |= type_bit_of(t.get_string(), where);
                    }
                    if (n.types == 0) n.types = 0x80; // "type": [] matches nothing
                } else {
                    fail(where, "type must be a string or an array of strings");
                }
            } else if (voc.validation && k == "const") {
                n.const_value = val;
            } else if (voc.validation && k == "enum") {
                if (!val.is_array()) fail(where, "enum must be an array");
                n.enum_values.assign(val.get_array().begin(), val.get_array().end());
                n.has_enum = true;
            } else if (voc.validation && (k == "minimum" || k == "maximum" || k == "exclusiveMinimum" ||
                                          k == "exclusiveMaximum" || k == "multipleOf")) {
                if (!val.is_number()) fail(where, std::string(k) + " must be a number");
                if (k == "multipleOf" && !(val.to_number<double>() > 0))
                    fail(where, "multipleOf must be > 0");
                (k == "minimum"            ? n.minimum
                 : k == "maximum"          ? n.maximum
                 : k == "exclusiveMinimum" ? n.exclusive_minimum
                 : k == "exclusiveMaximum" ? n.exclusive_maximum
                                           : n.multiple_of) = val;
                n.has_number_kw = true;
            } else if (voc.validation && (k == "minLength" || k == "maxLength")) {
                (k == "minLength" ? n.min_length : n.max_length) = get_count(val, where, k);
                n.has_string_kw = true;
            } else if (voc.validation && k == "pattern") {
                if (!val.is_string()) fail(where, "pattern must be a string");
                try {
                    n.pattern = compile_regex(val.get_string());
                } catch (const regex_error& e) {
                    fail(where, "pattern '" + std::string(val.get_string()) + "' " + e.what());
                }
                n.has_string_kw = true;
            } else if (voc.validation && (k == "minItems" || k == "maxItems")) {
                (k == "minItems" ? n.min_items : n.max_items) = get_count(val, where, k);
                n.has_array_kw = true;
            } else if (voc.validation && k == "uniqueItems") {
                if (!val.is_bool()) fail(where, "uniqueItems must be a boolean");
                n.unique_items = val.get_bool();
                n.has_array_kw = n.has_array_kw || n.unique_items;
            } else if (voc.validation && !d07 && (k == "minContains" || k == "maxContains")) {
                (k == "minContains" ? n.min_contains : n.max_contains) = get_count(val, where, k);
            } else if (voc.validation && (k == "minProperties" || k == "maxProperties")) {
                (k == "minProperties" ? n.min_properties : n.max_properties) = get_count(val, where, k);
                n.has_object_kw = true;
            } else if (voc.validation && k == "required") {
                n.required = get_strings(val, where, k);
                n.has_object_kw = true;
            } else if (voc.validation && !d07 && k == "dependentRequired") {
                if (!val.is_object()) fail(where, "dependentRequired must be an object");
                for (const auto& [p, list] : val.get_object())
                    n.dependent_required.emplace_back(std::string(p), get_strings(list, where, k));
                n.has_object_kw = true;
            } else if (k == "format") {
                if (!val.is_string()) fail(where, "format must be a string");
                n.format = std::string(val.get_string());
                n.format_assert = (opt_.assert_format || voc.format_assertion) && is_known_format(n.format);
                n.has_string_kw = n.has_string_kw || n.format_assert;
            }
            // ---- applicator vocabulary ----
            else if (voc.applicator && (k == "allOf" || k == "anyOf" || k == "oneOf")) {
                (k == "allOf"   ? n.all_of
                 : k == "anyOf" ? n.any_of
                                : n.one_of) = child_array(val, si, k, depth);
                n.has_applicators = true;
            } else if (voc.applicator && (k == "not" || k == "if" || k == "then" || k == "else")) {
                (k == "not"    ? n.not_
                 : k == "if"   ? n.if_
                 : k == "then" ? n.then_
                               : n.else_) = child_node(val, si, depth);
                n.has_applicators = true;
            } else if (voc.applicator && k == "prefixItems" && !d07) {
                n.prefix_items = child_array(val, si, k, depth);
                n.has_array_kw = true;
            } else if (voc.applicator && k == "items") {
                if (val.is_array() && d07)
                    n.prefix_items = child_array(val, si, k, depth);
                else if (val.is_array())
                    fail(where, "items must be a schema in draft 2020-12 (use prefixItems)");
                else
                    n.items = child_node(val, si, depth);
                n.has_array_kw = true;
            } else if (voc.applicator && k == "contains") {
                n.contains = child_node(val, si, depth);
                n.has_array_kw = true;
            } else if (voc.applicator && (k == "additionalProperties" || k == "propertyNames")) {
                (k == "additionalProperties" ? n.additional_properties : n.property_names) =
                    child_node(val, si, depth);
                n.has_object_kw = true;
            } else if (voc.applicator && k == "properties") {
                if (!val.is_object()) fail(where, "properties must be an object");
                for (const auto& [p, s] : val.get_object())
                    n.properties.emplace_back(std::string(p), child_node(s, si, depth));
                std::sort(n.properties.begin(), n.properties.end(),
                          [](const auto& a, const auto& b) { return a.first < b.first; });
                n.has_object_kw = true;
            } else if (voc.applicator && k == "patternProperties") {
                if (!val.is_object()) fail(where, "patternProperties must be an object");
                for (const auto& [p, s] : val.get_object()) {
                    std::unique_ptr<compiled_regex> re;
                    try {
                        re = compile_regex(p);
                    } catch (const regex_error& e) {
                        fail(where, "patternProperties key '" + std::string(p) + "' " + e.what());
                    }
                    n.pattern_properties.emplace_back(std::move(re), child_node(s, si, depth));
                }
                n.has_object_kw = true;
            } else if (voc.applicator && !d07 && k == "dependentSchemas") {
                if (!val.is_object()) fail(where, "dependentSchemas must be an object");
                for (const auto& [p, s] : val.get_object())
                    n.dependent_schemas.emplace_back(std::string(p), child_node(s, si, depth));
                n.has_object_kw = true;
            } else if (d07 && k == "dependencies") {
                if (!val.is_object()) fail(where, "dependencies must be an object");
                for (const auto& [p, s] : val.get_object()) {
                    if (s.is_array())
                        n.dependent_required.emplace_back(std::string(p), get_strings(s, where, k));
                    else
                        n.dependent_schemas.emplace_back(std::string(p), child_node(s, si, depth));
                }
                n.has_object_kw = true;
            } else if (voc.unevaluated && !d07 && k == "unevaluatedProperties") {
                n.unevaluated_properties = child_node(val, si, depth);
            } else if (voc.unevaluated && !d07 && k == "unevaluatedItems") {
                n.unevaluated_items = child_node(val, si, depth);
            }
        }
        // draft-07 additionalItems applies only next to array-form items.
        if (d07 && voc.applicator) {
            auto ai = o.find("additionalItems");
            auto items = o.find("items");
            if (ai != o.end() && items != o.end() && items->value().is_array()) {
                n.items = child_node(ai->value(), si, depth);
                n.has_array_kw = true;
            }
        }
        if (n.contains || n.min_contains || n.max_contains) n.has_array_kw = true;
        if (!n.dependent_schemas.empty()) n.has_applicators = true;
        return &n;
    }

    void compile_dynamic_anchors() {
        if (!out_.uses_dynamic_ref) return;
        // Every $dynamicAnchor may become the target of a $dynamicRef through the dynamic scope,
        // so all of them need nodes. Compiling may load more documents: loop until done.
        for (std::size_t i = 0; i < pending_dynamic_.size(); ++i) {
            auto [res, entry] = pending_dynamic_[i];
            const node* n = compile_node(*entry.second, info_.at(entry.second), 0);
            if (res) res->dynamic_anchors.emplace_back(entry.first, n);
        }
    }
};

} // namespace

const node* node::find_property(std::string_view key) const noexcept {
    if (properties.size() <= 8) {
        for (const auto& [k, n] : properties)
            if (k == key) return n;
        return nullptr;
    }
    auto it = std::lower_bound(properties.begin(), properties.end(), key,
                               [](const auto& p, std::string_view k) { return p.first < k; });
    return it != properties.end() && it->first == key ? it->second : nullptr;
}

} // namespace detail

// ---------------------------------------------------------------------- public API

void schema_registry::add(std::string uri, json::value schema) {
    if (!uri.empty() && uri.back() == '#') uri.pop_back();
    docs_[std::move(uri)] = std::move(schema);
}

const json::value* schema_registry::find(std::string_view uri) const noexcept {
    if (!uri.empty() && uri.back() == '#') uri.remove_suffix(1);
    auto it = docs_.find(uri);
    return it == docs_.end() ? nullptr : &it->second;
}

validator validator::compile(const json::value& schema, const compile_options& options) {
    return compile_ref(schema, "", options);
}

validator validator::compile_ref(const json::value& root_document, std::string_view json_pointer,
                                 const compile_options& options) {
    auto s = std::make_shared<detail::compiled_schema>();
    try {
        detail::compiler c(*s, options);
        s->root = c.compile_root(root_document, json_pointer);
    } catch (const compile_error&) {
        throw;
    } catch (const std::exception& e) {
        throw compile_error(std::string("invalid schema: ") + e.what());
    }
    return validator(std::move(s));
}

bool validator::is_valid(const json::value& instance) const {
    return detail::evaluate_fast(*impl_, instance);
}

std::vector<validation_error> validator::validate(const json::value& instance, std::size_t max_errors) const {
    return detail::evaluate_collect(*impl_, instance, max_errors);
}

dialect validator::root_dialect() const noexcept {
    return impl_->root_dialect;
}

} // namespace mcp::schema
