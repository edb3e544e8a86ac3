// Matching a URI against a parsed template: a lazy backtracking search over the template's
// units (literals and expressions), then extraction of the variables from the chosen split.
//
// The search keeps one frame per unit entered. An expression's frame scans the URI forward one
// character (or pct-triplet) at a time, keeping just enough state to know whether the text
// scanned so far is something the expression could have produced (its "candidates"), and
// offers the shortest non-empty candidate first; when the rest of the template fails from
// there, it offers the next longer one, and the empty text last. A (unit, position) pair that
// failed once is remembered, so the usual templates cost O(uri size); a work budget bounds the
// rest. The search is iterative: a template with thousands of expressions cannot overflow the
// stack.
#include <mcp/protocol/uri_template.hpp>

#include "protocol/uri_template_chars.hpp"

#include <limits>

namespace mcp {

using namespace uri_template_detail;

namespace {

constexpr std::size_t npos = std::string_view::npos;

// Characters an expression with operator `op` may span (lenient: whatever expansion would have
// percent-encoded is accepted raw, except the delimiters that end the URI part it sits in).
constexpr bool spans(char op, char c) noexcept {
    switch (op) {
    case '+':
    case '#':
        return true;
    case '/':
        return c != '?' && c != '#';
    case '?':
    case '&':
        return c != '#';
    default:
        return c != '/' && c != '?' && c != '#'; // none, '.', ';'
    }
}

// Whether the separator of an unnamed operator may appear unencoded inside one expanded value:
// ',' joins list members for none/+/# (and is reserved, so kept raw by + and #); '.' is
// unreserved. Then surplus pieces belong to the last variable.
constexpr bool separator_in_values(char op) noexcept {
    return op == 0 || op == '+' || op == '#' || op == '.';
}

} // namespace

class uri_template::matcher {
public:
    matcher(const uri_template& t, std::string_view uri) : t_(t), uri_(uri) {
        // Linear in the URI: generous enough for any ordinary template, a cap for the rest.
        const std::size_t n = uri.size();
        budget_ = n < (std::numeric_limits<std::size_t>::max() >> 8)
                      ? 65536 + 64 * (n + 1)
                      : std::numeric_limits<std::size_t>::max();
    }

    std::optional<std::map<std::string, std::string>> run() {
        frames_.reserve(t_.units_.size());
        if (!search()) return std::nullopt;
        std::map<std::string, std::string> out;
        // Appearances without a prefix modifier first, so that prefixed ones can be checked
        // against the full value.
        if (!extract(false, out) || !extract(true, out)) return std::nullopt;
        return out;
    }

private:
    struct frame {
        std::size_t unit = 0, start = 0, end = 0; ///< the unit's text is uri_[start, end)
        bool fresh = true;                        ///< no candidate offered yet
        bool started = false;              ///< the operator's leading character is consumed (or it has none)
        bool dead = false;                 ///< no longer text can be a candidate
        bool empty_tried = false;          ///< the empty text, the last candidate, was offered
        std::size_t var = 0;               ///< unnamed operators: the variable receiving the current piece
        std::size_t chars = 0;             ///< code points in the current value (prefix limit)
        std::size_t pair_start = 0;        ///< named operators: where the current pair starts
        std::size_t eq = npos;             ///< ... and its '=', if seen
        const varspec* pair_var = nullptr; ///< ... and the variable its name names, once known
    };

    bool spend() {
        if (budget_ == 0) {
            aborted_ = true;
            return false;
        }
        --budget_;
        return true;
    }

    // ---------------------------------------------------------------- memo of failed states
    std::size_t memo_index(std::size_t unit, std::size_t pos) const { return unit * (uri_.size() + 1) + pos; }
    bool failed(std::size_t unit, std::size_t pos) const {
        return !memo_.empty() && memo_[memo_index(unit, pos)];
    }
    void mark_failed(std::size_t unit, std::size_t pos) {
        if (memo_.empty()) {
            // Allocated at the first failure only: a URI that matches at once costs nothing.
            constexpr std::size_t max_bits = std::size_t(1) << 23; // 1 MiB
            const std::size_t bits = t_.units_.size() * (uri_.size() + 1);
            if (memo_off_ || bits > max_bits || uri_.size() >= max_bits) {
                memo_off_ = true; // the budget alone bounds the work then
                return;
            }
            memo_.assign(bits, false);
        }
        memo_[memo_index(unit, pos)] = true;
    }

    // ---------------------------------------------------------------- search
    bool search() {
        const auto& units = t_.units_;
        std::size_t u = 0, pos = 0;
        for (;;) {
            if (!spend()) return false;
            if (u == units.size()) {
                if (pos == uri_.size()) return true;
            } else if (!failed(u, pos)) {
                if (units[u].literal) {
                    if (auto len = literal_at(units[u], pos)) {
                        frames_.push_back(frame{.unit = u, .start = pos, .end = pos + *len});
                        ++u;
                        pos += *len;
                        continue;
                    }
                    mark_failed(u, pos);
                } else {
                    frames_.push_back(frame{.unit = u, .start = pos, .end = pos});
                }
            }
            // The innermost expression offers its next candidate; exhausted frames are popped.
            for (;;) {
                if (frames_.empty()) return false;
                frame& f = frames_.back();
                if (!units[f.unit].literal && next_candidate(f)) {
                    u = f.unit + 1;
                    pos = f.end;
                    break;
                }
                if (aborted_) return false;
                mark_failed(f.unit, f.start);
                frames_.pop_back();
            }
        }
    }

    // A literal matches as written in the template or in its expanded (encoded) form.
    std::optional<std::size_t> literal_at(const match_unit& u, std::size_t pos) const {
        const part& p = t_.parts_[u.part];
        const std::string_view raw(t_.text_.data() + p.offset, p.raw_len);
        if (uri_.substr(pos, raw.size()) == raw) return raw.size();
        const std::string_view enc(t_.encoded_.data() + p.enc_pos, p.enc_len);
        if (enc != raw && uri_.substr(pos, enc.size()) == enc) return enc.size();
        return std::nullopt;
    }

    bool next_candidate(frame& f) {
        const match_unit& u = t_.units_[f.unit];
        const op_rules r = rules_of(u.op);
        if (f.fresh) {
            f.fresh = false;
            f.started = r.first == 0;
            f.var = u.first_var;
        }
        while (!f.dead) {
            if (!spend()) return false;
            if (r.named ? step_named(f, u, r) : step_unnamed(f, u, r)) return true;
        }
        // The empty text comes last (every variable undefined, or for {var} / {+var} the first
        // one ""), so that "{.a}{.b}" fills a before b and "{var}" prefers a value.
        if (f.empty_tried) return false;
        f.empty_tried = true;
        f.end = f.start;
        return true;
    }

    // Consumes one character or triplet; true if the text is then a candidate.
    bool step_unnamed(frame& f, const match_unit& u, const op_rules& r) {
        if (f.end == uri_.size()) return die(f);
        const char c = uri_[f.end];
        if (!f.started) {
            if (c != r.first) return die(f);
            f.started = true;
            ++f.end;
            return true; // "/" alone: the first variable is ""
        }
        if (!spans(u.op, c)) return die(f);
        const varspec& v = t_.vars_[f.var];
        if (c == r.sep) {
            if (f.var + 1 < u.end_var) {
                ++f.var; // the next piece belongs to the next variable
                f.chars = 0;
            } else if (!v.explode) {
                if (!separator_in_values(u.op)) return die(f);
                if (!count_char(f, v, static_cast<unsigned char>(c))) return die(f);
            }
            ++f.end;
            return true;
        }
        return consume_value_char(f, v);
    }

    bool step_named(frame& f, const match_unit& u, const op_rules& r) {
        if (f.end == uri_.size()) return die(f);
        const char c = uri_[f.end];
        if (!f.started) {
            if (c != r.first && (u.alt_first == 0 || c != u.alt_first)) return die(f);
            f.started = true;
            start_pair(f, f.end + 1);
            ++f.end;
            return false; // an empty pair names nothing
        }
        if (!spans(u.op, c)) return die(f);
        if (c == r.sep) {
            if (!pair_complete(f, u)) return die(f);
            start_pair(f, f.end + 1);
            ++f.end;
            return false;
        }
        if (f.eq == npos) {
            if (c == '=') {
                f.pair_var = lookup(u, uri_.substr(f.pair_start, f.end - f.pair_start));
                if (!f.pair_var) return die(f); // the name is complete and names no variable
                f.eq = f.end++;
                return true;
            }
            f.end += is_triplet(uri_, f.end) ? 3 : 1;
            return pair_complete(f, u); // a bare name: an empty value
        }
        return consume_value_char(f, *f.pair_var);
    }

    void start_pair(frame& f, std::size_t at) {
        f.pair_start = at;
        f.eq = npos;
        f.pair_var = nullptr;
        f.chars = 0;
    }

    bool pair_complete(const frame& f, const match_unit& u) const {
        if (f.eq != npos) return true;
        return lookup(u, uri_.substr(f.pair_start, f.end - f.pair_start)) != nullptr;
    }

    // A character of a value: checks the prefix limit of `v`.
    bool consume_value_char(frame& f, const varspec& v) {
        const bool triplet = is_triplet(uri_, f.end);
        const auto b =
            triplet ? static_cast<unsigned char>(hex_value(uri_[f.end + 1]) * 16 + hex_value(uri_[f.end + 2]))
                    : static_cast<unsigned char>(uri_[f.end]);
        if (!count_char(f, v, b)) return die(f);
        f.end += triplet ? 3 : 1;
        return true;
    }

    static bool count_char(frame& f, const varspec& v, unsigned char b) {
        if (v.prefix == 0 || !starts_code_point(b)) return true;
        return ++f.chars <= v.prefix;
    }

    static bool die(frame& f) {
        f.dead = true;
        return false;
    }

    // The first variable of the unit called `name`.
    const varspec* lookup(const match_unit& u, std::string_view name) const {
        if (name.empty()) return nullptr;
        for (std::size_t i = u.first_var; i < u.end_var; ++i)
            if (t_.name_of(t_.vars_[i]) == name) return &t_.vars_[i];
        return nullptr;
    }

    // ---------------------------------------------------------------- extraction
    bool extract(bool prefixed_pass, std::map<std::string, std::string>& out) const {
        for (const frame& f : frames_) {
            const match_unit& u = t_.units_[f.unit];
            if (u.literal) continue;
            const op_rules r = rules_of(u.op);
            std::string_view text = uri_.substr(f.start, f.end - f.start);
            if (r.first) {
                if (text.empty()) continue; // every variable undefined
                text.remove_prefix(1);
            }
            const bool ok = r.named ? extract_named(u, r, text, prefixed_pass, out)
                                    : extract_unnamed(u, r, text, prefixed_pass, out);
            if (!ok) return false;
        }
        return true;
    }

    bool extract_unnamed(const match_unit& u, const op_rules& r, std::string_view text, bool prefixed_pass,
                         std::map<std::string, std::string>& out) const {
        for (std::size_t i = u.first_var; i < u.end_var; ++i) {
            const varspec& v = t_.vars_[i];
            std::string value;
            if (i + 1 < u.end_var) {
                const auto sep = text.find(r.sep);
                append_decoded(value, text.substr(0, sep));
                if (!commit(v, std::move(value), prefixed_pass, out)) return false;
                if (sep == npos) return true; // the remaining variables are undefined
                text.remove_prefix(sep + 1);
                continue;
            }
            if (v.explode) {
                // List members, decoded one by one and joined with ','.
                for (std::size_t sep; (sep = text.find(r.sep)) != npos; text.remove_prefix(sep + 1)) {
                    append_decoded(value, text.substr(0, sep));
                    value.push_back(',');
                }
            }
            append_decoded(value, text);
            return commit(v, std::move(value), prefixed_pass, out);
        }
        return true;
    }

    bool extract_named(const match_unit& u, const op_rules& r, std::string_view text, bool prefixed_pass,
                       std::map<std::string, std::string>& out) const {
        for (std::size_t i = u.first_var; i < u.end_var; ++i) {
            const varspec& v = t_.vars_[i];
            const auto name = t_.name_of(v);
            if (lookup(u, name) != &v) continue; // a name repeated in the unit is handled once
            std::string joined;
            bool any = false;
            for (std::size_t pos = 0;;) {
                const auto sep = text.find(r.sep, pos);
                const auto pair = text.substr(pos, sep == npos ? npos : sep - pos);
                const auto eq = pair.find('=');
                if (pair.substr(0, eq) == name) {
                    std::string value;
                    if (eq != npos) append_decoded(value, pair.substr(eq + 1));
                    if (v.explode) {
                        // Repeated names of an exploded list: members joined with ','.
                        if (any) joined.push_back(',');
                        joined += value;
                    } else if (!commit(v, std::move(value), prefixed_pass, out)) {
                        return false;
                    }
                    any = true;
                }
                if (sep == npos) break;
                pos = sep + 1;
            }
            if (v.explode && any && !commit(v, std::move(joined), prefixed_pass, out)) return false;
        }
        return true;
    }

    // Records one appearance of a variable; false if it contradicts another appearance.
    bool commit(const varspec& v, std::string value, bool prefixed_pass,
                std::map<std::string, std::string>& out) const {
        const bool prefixed = v.prefix != 0;
        if (prefixed != prefixed_pass) return true; // the other pass
        auto [it, inserted] = out.try_emplace(std::string(t_.name_of(v)), std::move(value));
        if (inserted) return true;
        if (!prefixed) return it->second == value;
        // A prefix appearance agrees with the full value (or with another prefix: keep the longer).
        const std::string& have = it->second;
        if (have.compare(0, value.size(), value) == 0 && value.size() <= have.size()) return true;
        if (value.compare(0, have.size(), have) == 0 && !has_unprefixed_appearance(v)) {
            it->second = std::move(value);
            return true;
        }
        return false;
    }

    // Whether the template names `v` somewhere without a prefix modifier: a value recorded for it
    // then is the full value, and no prefix of it may be longer.
    bool has_unprefixed_appearance(const varspec& v) const {
        for (const auto& w : t_.vars_)
            if (w.prefix == 0 && t_.name_of(w) == t_.name_of(v)) return true;
        return false;
    }

    const uri_template& t_;
    std::string_view uri_;
    std::vector<frame> frames_;
    std::vector<bool> memo_;
    bool memo_off_ = false;
    bool aborted_ = false;
    std::size_t budget_ = 0;
};

std::optional<std::map<std::string, std::string>> uri_template::match(std::string_view uri) const {
    return matcher(*this, uri).run();
}

} // namespace mcp
