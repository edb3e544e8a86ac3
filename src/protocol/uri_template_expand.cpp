// Expansion of a parsed template (RFC 6570 §3.2 and the algorithm of Appendix A).
#include <mcp/protocol/uri_template.hpp>

#include "protocol/uri_template_chars.hpp"

#include <charconv>
#include <cmath>

namespace mcp {

using namespace uri_template_detail;

namespace {

// The text of a string, number or bool value. Numbers are written into `buf`; nullopt for a
// value that is not a scalar, or a non-finite double (which JSON would write as null).
std::optional<std::string_view> scalar_text(const json::value& v, char (&buf)[32]) {
    switch (v.kind()) {
    case json::kind::string:
        return std::string_view(v.get_string());
    case json::kind::bool_:
        return v.get_bool() ? std::string_view("true") : std::string_view("false");
    case json::kind::int64: {
        auto r = std::to_chars(buf, buf + sizeof buf, v.get_int64());
        return std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
    }
    case json::kind::uint64: {
        auto r = std::to_chars(buf, buf + sizeof buf, v.get_uint64());
        return std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
    }
    case json::kind::double_: {
        if (!std::isfinite(v.get_double())) return std::nullopt;
        auto r = std::to_chars(buf, buf + sizeof buf, v.get_double()); // shortest round trip
        return std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
    }
    default:
        return std::nullopt;
    }
}

bool is_composite(const json::value& v) noexcept {
    return v.is_array() || v.is_object();
}

// A member of a list or a value of an object that expansion writes: not null, not a non-finite
// double.
bool is_defined(const json::value& v) noexcept {
    return !v.is_null() && !(v.is_double() && !std::isfinite(v.get_double()));
}

} // namespace

class uri_template::expander {
public:
    expander(const uri_template& t, std::string& out, const json::object& vars)
        : t_(t), out_(out), vars_(vars) {}

    void run() {
        out_.reserve(out_.size() + t_.encoded_.size() + 8 * t_.vars_.size());
        for (const auto& p : t_.parts_) {
            if (p.expression)
                expression(p);
            else
                out_.append(t_.encoded_, p.enc_pos, p.enc_len);
        }
    }

private:
    [[noreturn]] void fail(const part& p, const std::string& problem) const {
        constexpr std::size_t max_quote = 120;
        std::string quoted = t_.text_.substr(0, max_quote);
        if (t_.text_.size() > max_quote) quoted += "...";
        throw uri_template_error("cannot expand URI template \"" + quoted + "\": " + problem +
                                     " (expression at offset " + std::to_string(p.offset) + ")",
                                 p.offset);
    }

    void expression(const part& p) {
        r_ = rules_of(p.op);
        first_ = true;
        for (std::size_t i = p.first_var; i < p.end_var; ++i) {
            const varspec& v = t_.vars_[i];
            const auto name = t_.name_of(v);
            auto it = vars_.find(name);
            if (it == vars_.end() || it->value().is_null()) continue; // undefined
            const json::value& value = it->value();
            if (value.is_array())
                list(p, v, name, value.get_array());
            else if (value.is_object())
                associative(p, v, name, value.get_object());
            else
                string(v, name, value);
        }
    }

    // Writes the operator's first character before the first defined value, the separator
    // before each later one.
    void begin_value() {
        const char c = first_ ? r_.first : r_.sep;
        if (c) out_.push_back(c);
        first_ = false;
    }

    void encoded(std::string_view s) { append_encoded(out_, s, r_.allow_reserved); }

    // "name=value", "name=" or "name" as the operator wants for an empty value.
    void named_value(std::string_view name, std::string_view value, bool encode_name) {
        if (encode_name)
            encoded(name);
        else
            out_.append(name); // a varname is already URI-safe (varchars and pct-triplets)
        if (value.empty()) {
            if (r_.ifemp_equals) out_.push_back('=');
        } else {
            out_.push_back('=');
            encoded(value);
        }
    }

    void string(const varspec& v, std::string_view name, const json::value& value) {
        char buf[32];
        auto text = scalar_text(value, buf);
        if (!text) return; // non-finite number: undefined, as JSON would make it null
        begin_value();
        std::string_view s = v.prefix ? utf8_prefix(*text, v.prefix) : *text;
        if (r_.named)
            named_value(name, s, false);
        else
            encoded(s);
    }

    // The defined members of a list, checked: nested lists/objects cannot be expanded.
    std::size_t defined_members(const part& p, std::string_view name, const json::array& a) const {
        std::size_t n = 0;
        for (const auto& m : a) {
            if (is_composite(m))
                fail(p, "list variable '" + std::string(name) + "' has a nested array or object member");
            if (is_defined(m)) ++n;
        }
        return n;
    }

    void list(const part& p, const varspec& v, std::string_view name, const json::array& a) {
        if (v.prefix)
            fail(p, "prefix modifier :" + std::to_string(v.prefix) + " applied to list variable '" +
                        std::string(name) + "'");
        if (defined_members(p, name, a) == 0) return; // an empty list is undefined
        begin_value();
        char buf[32];
        bool first_member = true;
        if (!v.explode) {
            if (r_.named) {
                out_.append(name);
                out_.push_back('=');
            }
            for (const auto& m : a) {
                auto text = scalar_text(m, buf);
                if (!text) continue;
                if (!first_member) out_.push_back(',');
                first_member = false;
                encoded(*text);
            }
            return;
        }
        for (const auto& m : a) {
            auto text = scalar_text(m, buf);
            if (!text) continue;
            if (!first_member) out_.push_back(r_.sep);
            first_member = false;
            if (r_.named)
                named_value(name, *text, false);
            else
                encoded(*text);
        }
    }

    void associative(const part& p, const varspec& v, std::string_view name, const json::object& o) {
        if (v.prefix)
            fail(p, "prefix modifier :" + std::to_string(v.prefix) + " applied to object variable '" +
                        std::string(name) + "'");
        std::size_t defined = 0;
        for (const auto& kv : o) {
            if (is_composite(kv.value()))
                fail(p, "object variable '" + std::string(name) + "' has a nested array or object value");
            if (is_defined(kv.value())) ++defined;
        }
        if (defined == 0) return; // undefined when no pair is defined
        begin_value();
        char buf[32];
        bool first_pair = true;
        if (!v.explode) {
            if (r_.named) {
                out_.append(name);
                out_.push_back('=');
            }
            for (const auto& kv : o) {
                auto text = scalar_text(kv.value(), buf);
                if (!text) continue;
                if (!first_pair) out_.push_back(',');
                first_pair = false;
                encoded(kv.key());
                out_.push_back(',');
                encoded(*text);
            }
            return;
        }
        for (const auto& kv : o) {
            auto text = scalar_text(kv.value(), buf);
            if (!text) continue;
            if (!first_pair) out_.push_back(r_.sep);
            first_pair = false;
            if (r_.named) {
                named_value(kv.key(), *text, true);
            } else {
                encoded(kv.key());
                out_.push_back('=');
                encoded(*text);
            }
        }
    }

    const uri_template& t_;
    std::string& out_;
    const json::object& vars_;
    op_rules r_{};
    bool first_ = true;
};

void uri_template::expand_to(std::string& out, const json::object& variables) const {
    expander(*this, out, variables).run();
}

std::string uri_template::expand(const json::object& variables) const {
    std::string out;
    expand_to(out, variables);
    return out;
}

} // namespace mcp
