// schema/evaluator.hpp - the evaluator class of evaluate.cpp: its state, limits and the
// declarations of its per-keyword steps. Part of that one translation unit (included by
// evaluate.cpp only), so it keeps internal linkage and the compiler sees every step together.
#pragma once

#include "schema/node.hpp"
#include "schema/uri.hpp"
#include "schema/values.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace mcp::schema::detail {
namespace { // NOLINT(google-build-namespaces, cert-dcl59-cpp): one includer, see above

/// "1 character", "3 characters": messages read as English whatever the number.
std::string count_of(std::uint64_t n, const char* singular, const char* plural) {
    return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

constexpr unsigned max_depth = 400;
constexpr std::uint64_t min_step_budget = 1'000'000; // ~20 ms
constexpr std::uint64_t steps_per_value = 256;

// Values in `v` (itself included), without recursion.
std::uint64_t count_values(const json::value& v) {
    std::uint64_t n = 0;
    std::vector<const json::value*> todo{&v};
    while (!todo.empty()) {
        const json::value* x = todo.back();
        todo.pop_back();
        ++n;
        if (const auto* a = x->if_array())
            for (const auto& e : *a) todo.push_back(&e);
        else if (const auto* o = x->if_object())
            for (const auto& kv : *o) todo.push_back(&kv.value());
    }
    return n;
}

/// Members (object) or indices (array) evaluated at one instance location.
struct marks {
    std::vector<bool> seen;
    void mark(std::size_t i, std::size_t size) {
        if (seen.size() < size) seen.resize(size, false);
        seen[i] = true;
    }
    void mark_all(std::size_t size) { seen.assign(size, true); }
    bool has(std::size_t i) const { return i < seen.size() && seen[i]; }
    void merge(const marks& o) {
        if (seen.size() < o.seen.size()) seen.resize(o.seen.size(), false);
        for (std::size_t i = 0; i < o.seen.size(); ++i)
            if (o.seen[i]) seen[i] = true;
    }
};

class evaluator {
public:
    evaluator(const compiled_schema& s, std::vector<validation_error>* errors, std::size_t max_errors)
        : s_(s), errors_(errors), max_errors_(max_errors), collect_(errors != nullptr) {}

    bool run(const json::value& v) {
        root_instance_ = &v;
        const bool ok = eval(*s_.root, v, nullptr);
        if (!over_budget_) return ok;
        if (collect_) { // whatever speculative branch ran out, the verdict is "invalid", said once
            validation_error e{"", s_.root->location, "$ref",
                               "schema evaluation exceeded its budget of " + std::to_string(step_budget_) +
                                   " steps (a pathological schema: references multiply the work)"};
            if (errors_->size() >= max_errors_ && !errors_->empty())
                errors_->back() = std::move(e);
            else
                errors_->push_back(std::move(e));
        }
        return false;
    }

private:
    struct path_seg {
        std::string_view key;
        std::size_t index;
    };
    static constexpr std::size_t no_index = static_cast<std::size_t>(-1);

    const compiled_schema& s_;
    std::vector<validation_error>* errors_;
    std::size_t max_errors_;
    bool collect_;
    unsigned quiet_ = 0; // >0 inside speculative subschemas: fail fast, record nothing
    unsigned depth_ = 0;
    unsigned explaining_ = 0; // >0 while re-running an anyOf/oneOf branch to explain a failure
    std::vector<path_seg> path_;
    std::vector<const resource*> scope_;
    std::vector<std::pair<const node*, const json::value*>> active_refs_;
    const json::value* root_instance_ = nullptr;
    std::uint64_t steps_ = 0;
    std::uint64_t step_budget_ = min_step_budget;
    bool budget_scaled_ = false;
    bool over_budget_ = false;

    /// Called when steps_ passes step_budget_: scale the budget to the instance once.
    bool within_budget() {
        if (!budget_scaled_) {
            budget_scaled_ = true;
            step_budget_ = std::max(min_step_budget, steps_per_value * count_values(*root_instance_));
            if (steps_ <= step_budget_) return true;
        }
        over_budget_ = true;
        return false;
    }

    bool collecting() const noexcept { return collect_ && quiet_ == 0 && errors_->size() < max_errors_; }

    std::string instance_pointer() const {
        std::string out;
        for (const auto& seg : path_) {
            out += '/';
            if (seg.index == no_index)
                append_pointer_token(out, seg.key);
            else
                out += std::to_string(seg.index);
        }
        return out;
    }

    /// Record a failure when collecting; returns whether evaluation should continue.
    template <class MakeMessage> bool fail(const node& n, std::string_view keyword, MakeMessage&& make) {
        if (!collecting()) return false;
        errors_->push_back(
            {instance_pointer(), n.location + "/" + std::string(keyword), std::string(keyword), make()});
        return errors_->size() < max_errors_;
    }

    struct path_guard {
        evaluator* e;
        path_guard(evaluator* ev, std::string_view key, std::size_t index) : e(ev) {
            if (e->collect_) e->path_.push_back({key, index});
        }
        ~path_guard() {
            if (e->collect_) e->path_.pop_back();
        }
        path_guard(const path_guard&) = delete;
        path_guard& operator=(const path_guard&) = delete;
    };

    struct quiet_guard {
        evaluator* e;
        explicit quiet_guard(evaluator* ev) : e(ev) { ++e->quiet_; }
        ~quiet_guard() { --e->quiet_; }
        quiet_guard(const quiet_guard&) = delete;
        quiet_guard& operator=(const quiet_guard&) = delete;
    };

    bool eval_child(const node& n, const json::value& v, std::string_view key, std::size_t index) {
        path_guard g(this, key, index);
        return eval(n, v, nullptr);
    }

    bool eval_ref(const node& from, const node& target, const json::value& v, marks* m, std::string_view kw) {
        // Re-entering `target` for the very same instance while it is being evaluated can only
        // loop forever. Entries for one instance are contiguous at the top of the stack.
        for (auto it = active_refs_.rbegin(); it != active_refs_.rend() && it->second == &v; ++it)
            if (it->first == &target) {
                fail(from, kw, [] {
                    return std::string("infinite $ref cycle (the reference does not consume the instance)");
                });
                return false;
            }
        active_refs_.emplace_back(&target, &v);
        bool ok = eval(target, v, m);
        active_refs_.pop_back();
        return ok;
    }

    const node* resolve_dynamic(const node& n) const {
        if (n.dynamic_anchor_name.empty()) return n.dynamic_ref;
        for (const resource* r : scope_) // outermost first
            for (const auto& [name, target] : r->dynamic_anchors)
                if (name == n.dynamic_anchor_name) return target;
        return n.dynamic_ref;
    }

    bool eval(const node& n, const json::value& v, marks* m);
    bool eval_number(const node& n, const json::value& v);
    bool eval_string(const node& n, const json::string& str);
    bool eval_array(const node& n, const json::array& arr, marks* m);
    bool eval_object(const node& n, const json::object& obj, marks* m);
    bool eval_applicators(const node& n, const json::value& v, marks* m);
    bool eval_alternatives(const node& n, const std::vector<const node*>& subs, const json::value& v,
                           marks* m, bool one);
};

} // namespace
} // namespace mcp::schema::detail
