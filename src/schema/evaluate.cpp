// schema/evaluate.cpp - walks a compiled schema over an instance.
//
// One evaluator serves both entry points: is_valid (stop at the first failure, build no strings)
// and validate (keep going, record errors with JSON pointers). Speculative subschemas (anyOf,
// oneOf, not, if, contains) are always evaluated in the fast mode so that their failures are
// not reported as errors of the instance.
//
// unevaluatedProperties / unevaluatedItems need to know which members the adjacent keywords and
// in-place applicators looked at: a node that has one of them collects that set (`marks`) from
// its own keywords and from successful in-place subschemas, then applies itself to the rest.
//
// Termination: a $ref cycle that does not consume the instance (the same node re-entered for the
// same instance value while it is still being evaluated) fails instead of recursing, and nesting
// is bounded (max_depth) so hostile schemas and instances cannot overflow the stack. References
// can also make work exponential without any cycle (allOf: [{$ref: a1}, {$ref: a1}] with a1 the
// same one level down, 40 levels deep), so evaluation steps are budgeted too: at least
// min_step_budget, or steps_per_value per value of the instance; past it, the instance is
// reported invalid with a clear error.
#include "schema/evaluator.hpp"

#include <mcp/json/type_codec.hpp>
#include <mcp/json/utf8.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace mcp::schema::detail {
namespace {

bool evaluator::eval(const node& n, const json::value& v, marks* m) {
    if (over_budget_ || (++steps_ > step_budget_ && !within_budget())) return false;
    if (n.is_bool) {
        if (n.bool_value) return true;
        fail(n, "false", [] { return std::string("no value is allowed here (schema is false)"); });
        return false;
    }
    if (depth_ >= max_depth) {
        fail(n, "$ref", [] { return std::string("schema evaluation nested too deeply"); });
        return false;
    }
    ++depth_;
    bool pushed_scope = false;
    if (s_.uses_dynamic_ref && n.res && (scope_.empty() || scope_.back() != n.res)) {
        scope_.push_back(n.res);
        pushed_scope = true;
    }
    struct exit_guard {
        evaluator* e;
        bool pop;
        ~exit_guard() {
            --e->depth_;
            if (pop) e->scope_.pop_back();
        }
    } guard{this, pushed_scope};

    const bool track = n.unevaluated_properties || n.unevaluated_items;
    marks local;
    marks* mk = track ? &local : m;
    bool ok = true;

    if (n.types) {
        if (!(type_bits_of(v) & n.types)) {
            ok = false;
            if (!fail(n, "type", [&] {
                    return "expected " + type_list(n.types) + ", got " +
                           std::string(mcp::detail::json_kind_name(v));
                }))
                return false;
        }
    }
    if (n.const_value && !json_equal(*n.const_value, v)) {
        ok = false;
        if (!fail(n, "const", [&] { return "value must be " + to_json(*n.const_value); })) return false;
    }
    if (n.has_enum) {
        bool found = false;
        for (const auto& e : n.enum_values)
            if (json_equal(e, v)) {
                found = true;
                break;
            }
        if (!found) {
            ok = false;
            if (!fail(n, "enum", [&] {
                    std::string msg = "value must be one of ";
                    for (std::size_t i = 0; i < n.enum_values.size() && i < 10; ++i)
                        msg += (i ? ", " : "") + to_json(n.enum_values[i]);
                    if (n.enum_values.size() > 10) msg += ", ...";
                    return msg;
                }))
                return false;
        }
    }
    switch (v.kind()) {
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_:
        if (n.has_number_kw && !eval_number(n, v)) {
            ok = false;
            if (!collecting()) return false;
        }
        break;
    case json::kind::string:
        if (n.has_string_kw && !eval_string(n, v.get_string())) {
            ok = false;
            if (!collecting()) return false;
        }
        break;
    case json::kind::array:
        if (n.has_array_kw && !eval_array(n, v.get_array(), mk)) {
            ok = false;
            if (!collecting()) return false;
        }
        break;
    case json::kind::object:
        if (n.has_object_kw && !eval_object(n, v.get_object(), mk)) {
            ok = false;
            if (!collecting()) return false;
        }
        break;
    default:
        break;
    }
    if (n.has_applicators && !eval_applicators(n, v, mk)) {
        ok = false;
        if (!collecting()) return false;
    }

    if (track) {
        if (n.unevaluated_properties && v.is_object()) {
            const auto& obj = v.get_object();
            std::size_t i = 0;
            for (auto it = obj.begin(); it != obj.end(); ++it, ++i) {
                if (local.has(i)) continue;
                const node& sub = *n.unevaluated_properties;
                if (sub.is_bool && !sub.bool_value) { // say which property, once
                    ok = false;
                    std::string_view key = it->key();
                    if (!fail(n, "unevaluatedProperties", [&] {
                            return "property '" + std::string(key) + "' is not allowed (unevaluated)";
                        }))
                        return false;
                } else if (!eval_child(sub, it->value(), it->key(), no_index)) {
                    ok = false;
                    if (!collecting()) return false;
                }
                local.mark(i, obj.size());
            }
        }
        if (n.unevaluated_items && v.is_array()) {
            const auto& arr = v.get_array();
            for (std::size_t i = 0; i < arr.size(); ++i) {
                if (local.has(i)) continue;
                const node& sub = *n.unevaluated_items;
                if (sub.is_bool && !sub.bool_value) {
                    ok = false;
                    if (!fail(n, "unevaluatedItems",
                              [&] { return "item " + std::to_string(i) + " is not allowed (unevaluated)"; }))
                        return false;
                } else if (!eval_child(sub, arr[i], {}, i)) {
                    ok = false;
                    if (!collecting()) return false;
                }
                local.mark(i, arr.size());
            }
        }
        if (m && ok) m->merge(local);
    }
    return ok;
}

bool evaluator::eval_number(const node& n, const json::value& v) {
    bool ok = true;
    auto check = [&](const std::optional<json::value>& limit, std::string_view kw, auto pred,
                     const char* what) {
        if (!limit || pred(compare_numbers(v, *limit))) return true;
        ok = false;
        return fail(n, kw, [&] {
            return "must be " + std::string(what) + " " + to_json(*limit) + ", got " + to_json(v);
        });
    };
    if (!check(
            n.minimum, "minimum", [](int c) { return c >= 0; }, ">="))
        return false;
    if (!check(
            n.maximum, "maximum", [](int c) { return c <= 0; }, "<="))
        return false;
    if (!check(
            n.exclusive_minimum, "exclusiveMinimum", [](int c) { return c > 0; }, ">"))
        return false;
    if (!check(
            n.exclusive_maximum, "exclusiveMaximum", [](int c) { return c < 0; }, "<"))
        return false;
    if (n.multiple_of && !is_multiple_of(v, *n.multiple_of)) {
        ok = false;
        if (!fail(n, "multipleOf", [&] { return "must be a multiple of " + to_json(*n.multiple_of); }))
            return false;
    }
    return ok;
}

bool evaluator::eval_string(const node& n, const json::string& str) {
    std::string_view s(str.data(), str.size());
    bool ok = true;
    if (n.min_length || n.max_length) {
        // Byte length bounds the code point count from above, and from below by a quarter.
        std::size_t len = s.size();
        bool need_exact = (n.min_length && len >= *n.min_length && len / 4 < *n.min_length) ||
                          (n.max_length && len > *n.max_length);
        if (need_exact || (n.min_length && len < *n.min_length)) len = utf8::length(s);
        if (n.min_length && len < *n.min_length) {
            ok = false;
            if (!fail(n, "minLength", [&] {
                    return "must be at least " + count_of(*n.min_length, "character", "characters") +
                           " long, got " + std::to_string(len);
                }))
                return false;
        }
        if (n.max_length && len > *n.max_length) {
            ok = false;
            if (!fail(n, "maxLength", [&] {
                    return "must be at most " + count_of(*n.max_length, "character", "characters") +
                           " long, got " + std::to_string(len);
                }))
                return false;
        }
    }
    if (n.pattern && !n.pattern->search(s)) {
        ok = false;
        if (!fail(n, "pattern", [&] { return "must match the pattern '" + n.pattern->source + "'"; }))
            return false;
    }
    if (n.format_assert && !check_format(n.format, s)) {
        ok = false;
        if (!fail(n, "format", [&] { return "is not a valid " + n.format; })) return false;
    }
    return ok;
}

bool evaluator::eval_array(const node& n, const json::array& arr, marks* m) {
    bool ok = true;
    const std::size_t size = arr.size();
    if (n.min_items && size < *n.min_items) {
        ok = false;
        if (!fail(n, "minItems", [&] {
                return "must have at least " + count_of(*n.min_items, "item", "items") + ", got " +
                       std::to_string(size);
            }))
            return false;
    }
    if (n.max_items && size > *n.max_items) {
        ok = false;
        if (!fail(n, "maxItems", [&] {
                return "must have at most " + count_of(*n.max_items, "item", "items") + ", got " +
                       std::to_string(size);
            }))
            return false;
    }
    if (n.unique_items) {
        for (std::size_t i = 0; i < size; ++i)
            for (std::size_t j = i + 1; j < size; ++j)
                if (json_equal(arr[i], arr[j])) {
                    ok = false;
                    if (!fail(n, "uniqueItems", [&] {
                            return "items " + std::to_string(i) + " and " + std::to_string(j) + " are equal";
                        }))
                        return false;
                    i = j = size; // report once
                }
    }
    const std::size_t prefix = std::min(size, n.prefix_items.size());
    for (std::size_t i = 0; i < prefix; ++i) {
        if (!eval_child(*n.prefix_items[i], arr[i], {}, i)) {
            ok = false;
            if (!collecting()) return false;
        }
        if (m) m->mark(i, size);
    }
    if (n.items) {
        for (std::size_t i = prefix; i < size; ++i) {
            if (!eval_child(*n.items, arr[i], {}, i)) {
                ok = false;
                if (!collecting()) return false;
            }
            if (m) m->mark(i, size);
        }
    }
    if (n.contains) {
        std::size_t matches = 0;
        {
            quiet_guard q(this);
            for (std::size_t i = 0; i < size; ++i)
                if (eval(*n.contains, arr[i], nullptr)) {
                    ++matches;
                    if (m) m->mark(i, size);
                }
        }
        std::size_t min = n.min_contains.value_or(1);
        if (matches < min) {
            ok = false;
            if (!fail(n, n.min_contains ? "minContains" : "contains", [&] {
                    return "must contain at least " + std::to_string(min) + " matching item" +
                           (min == 1 ? "" : "s") + ", found " + std::to_string(matches);
                }))
                return false;
        }
        if (n.max_contains && matches > *n.max_contains) {
            ok = false;
            if (!fail(n, "maxContains", [&] {
                    return "must contain at most " +
                           count_of(*n.max_contains, "matching item", "matching items") + ", found " +
                           std::to_string(matches);
                }))
                return false;
        }
    }
    return ok;
}

bool evaluator::eval_object(const node& n, const json::object& obj, marks* m) {
    bool ok = true;
    const std::size_t size = obj.size();
    if (n.min_properties && size < *n.min_properties) {
        ok = false;
        if (!fail(n, "minProperties", [&] {
                return "must have at least " + count_of(*n.min_properties, "property", "properties");
            }))
            return false;
    }
    if (n.max_properties && size > *n.max_properties) {
        ok = false;
        if (!fail(n, "maxProperties", [&] {
                return "must have at most " + count_of(*n.max_properties, "property", "properties");
            }))
            return false;
    }
    for (const auto& r : n.required) {
        if (!obj.contains(r)) {
            ok = false;
            if (!fail(n, "required", [&] { return "missing required property '" + r + "'"; })) return false;
        }
    }
    for (const auto& [p, deps] : n.dependent_required) {
        if (!obj.contains(p)) continue;
        for (const auto& d : deps)
            if (!obj.contains(d)) {
                ok = false;
                if (!fail(n, "dependentRequired", [&, &p = p] {
                        return "property '" + d + "' is required when '" + p + "' is present";
                    }))
                    return false;
            }
    }
    const bool per_member =
        !n.properties.empty() || !n.pattern_properties.empty() || n.additional_properties || n.property_names;
    if (per_member) {
        std::size_t i = 0;
        for (auto it = obj.begin(); it != obj.end(); ++it, ++i) {
            std::string_view key = it->key();
            const json::value& val = it->value();
            if (n.property_names) {
                json::value key_value(json::string(key.data(), key.size()));
                bool good;
                {
                    quiet_guard q(this);
                    good = eval(*n.property_names, key_value, nullptr);
                }
                if (!good) {
                    ok = false;
                    if (!fail(n, "propertyNames",
                              [&] { return "property name '" + std::string(key) + "' is not allowed"; }))
                        return false;
                }
            }
            bool matched = false;
            if (const node* p = n.properties.empty() ? nullptr : n.find_property(key)) {
                matched = true;
                if (!eval_child(*p, val, key, no_index)) {
                    ok = false;
                    if (!collecting()) return false;
                }
            }
            for (const auto& [re, sub] : n.pattern_properties) {
                if (!re->search(key)) continue;
                matched = true;
                if (!eval_child(*sub, val, key, no_index)) {
                    ok = false;
                    if (!collecting()) return false;
                }
            }
            if (!matched && n.additional_properties) {
                matched = true;
                bool good;
                if (n.additional_properties->is_bool && !n.additional_properties->bool_value) {
                    good = false;
                    ok = false;
                    if (!fail(n, "additionalProperties",
                              [&] { return "property '" + std::string(key) + "' is not allowed"; }))
                        return false;
                } else {
                    good = eval_child(*n.additional_properties, val, key, no_index);
                    if (!good) {
                        ok = false;
                        if (!collecting()) return false;
                    }
                }
            }
            if (matched && m) m->mark(i, size);
        }
    }
    return ok;
}

bool evaluator::eval_alternatives(const node& n, const std::vector<const node*>& subs, const json::value& v,
                                  marks* m, bool one) {
    std::size_t passed = 0;
    std::size_t first = 0, second = 0;
    {
        quiet_guard q(this);
        for (std::size_t i = 0; i < subs.size(); ++i) {
            marks branch;
            if (!eval(*subs[i], v, m ? &branch : nullptr)) continue;
            if (passed == 0)
                first = i;
            else if (passed == 1)
                second = i;
            ++passed;
            if (m) m->merge(branch); // annotations of every successful branch count
            if (one && passed > 1 && !m) break;
            if (!one && !m) break; // anyOf without annotation tracking: one success is enough
        }
    }
    const char* kw = one ? "oneOf" : "anyOf";
    if (passed == 0) {
        if (!collecting()) return false;
        bool more = fail(n, kw, [&] {
            return "value does not match any of the " + std::to_string(subs.size()) + " " + kw +
                   " alternatives";
        });
        if (!more || explaining_) return false; // nested explanations would cost 2^depth
        ++explaining_;
        // Explain with the alternative that came closest: fewest errors, and an alternative
        // rejecting the value's very type (or const discriminator) is the least likely intent.
        std::vector<validation_error> best;
        std::size_t best_score = static_cast<std::size_t>(-1);
        const std::string here = instance_pointer();
        auto* saved = errors_;
        for (const node* sub : subs) {
            std::vector<validation_error> tmp;
            errors_ = &tmp;
            auto saved_max = max_errors_;
            max_errors_ = 64;
            eval(*sub, v, nullptr);
            max_errors_ = saved_max;
            std::size_t score = tmp.size();
            for (const auto& e : tmp)
                if (e.instance_location == here && e.keyword == "type")
                    score += 1000;
                else if (e.keyword == "const")
                    score += 100;
            if (!tmp.empty() && score < best_score) {
                best_score = score;
                best = std::move(tmp);
            }
        }
        errors_ = saved;
        --explaining_;
        for (auto& e : best) {
            if (errors_->size() >= max_errors_) break;
            errors_->push_back(std::move(e));
        }
        return false;
    }
    if (one && passed > 1) {
        fail(n, kw, [&] {
            return "value matches more than one oneOf alternative (" + std::to_string(first) + " and " +
                   std::to_string(second) + ")";
        });
        return false;
    }
    return true;
}

bool evaluator::eval_applicators(const node& n, const json::value& v, marks* m) {
    bool ok = true;
    if (n.ref && !eval_ref(n, *n.ref, v, m, "$ref")) {
        ok = false;
        if (!collecting()) return false;
    }
    if (n.dynamic_ref && !eval_ref(n, *resolve_dynamic(n), v, m, "$dynamicRef")) {
        ok = false;
        if (!collecting()) return false;
    }
    for (const node* sub : n.all_of) {
        if (!eval(*sub, v, m)) {
            ok = false;
            if (!collecting()) return false;
        }
    }
    if (!n.any_of.empty() && !eval_alternatives(n, n.any_of, v, m, false)) {
        ok = false;
        if (!collecting()) return false;
    }
    if (!n.one_of.empty() && !eval_alternatives(n, n.one_of, v, m, true)) {
        ok = false;
        if (!collecting()) return false;
    }
    if (n.not_) {
        bool inner;
        {
            quiet_guard q(this);
            inner = eval(*n.not_, v, nullptr);
        }
        if (inner) {
            ok = false;
            if (!fail(n, "not", [] { return std::string("value must not match the 'not' schema"); }))
                return false;
        }
    }
    if (n.if_) {
        marks branch;
        bool cond;
        {
            quiet_guard q(this);
            cond = eval(*n.if_, v, m ? &branch : nullptr);
        }
        if (cond && m) m->merge(branch);
        const node* next = cond ? n.then_ : n.else_;
        if (next && !eval(*next, v, m)) {
            ok = false;
            if (!fail(n, cond ? "then" : "else", [&] {
                    return std::string("value does not match the '") + (cond ? "then" : "else") + "' schema";
                }))
                return false;
        }
    }
    if (!n.dependent_schemas.empty() && v.is_object()) {
        const auto& obj = v.get_object();
        for (const auto& [p, sub] : n.dependent_schemas) {
            if (!obj.contains(p)) continue;
            if (!eval(*sub, v, m)) {
                ok = false;
                if (!collecting()) return false;
            }
        }
    }
    return ok;
}

} // namespace

bool evaluate_fast(const compiled_schema& s, const json::value& instance) {
    evaluator e(s, nullptr, 0);
    return e.run(instance);
}

std::vector<validation_error> evaluate_collect(const compiled_schema& s, const json::value& instance,
                                               std::size_t max_errors) {
    std::vector<validation_error> errors;
    if (max_errors == 0) max_errors = 1;
    evaluator e(s, &errors, max_errors);
    if (!e.run(instance) && errors.empty())
        errors.push_back({"", s.root->location, "", "value is not valid"}); // safety net
    return errors;
}

} // namespace mcp::schema::detail
