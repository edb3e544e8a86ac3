// WWW-Authenticate parsing (RFC 9110 sections 11.2, 11.6.1 and 5.6): challenges separated by
// commas, each `scheme [ token68 / #auth-param ]`, where an auth-param is `token BWS = BWS
// ( token / quoted-string )`. The grammar is ambiguous only in telling the comma that ends a
// parameter from the one that ends a challenge; a comma followed by `token =` continues the
// current challenge, one followed by a bare token starts the next.
#include <mcp/auth/www_authenticate.hpp>

#include <stdexcept>

namespace mcp::auth {

namespace {

constexpr std::size_t max_challenges = 32;
constexpr std::size_t max_params = 64;

bool is_tchar(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    switch (c) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+': case '-':
    case '.': case '^': case '_': case '`': case '|': case '~':
        return true;
    default:
        return false;
    }
}

bool is_token68_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
}

char lower(char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequal(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

class parser {
public:
    explicit parser(std::string_view s) : s_(s) {}

    std::vector<challenge> run() {
        std::vector<challenge> out;
        skip_list_separators();
        while (!done()) {
            if (out.size() == max_challenges) fail("more than 32 challenges");
            out.push_back(parse_challenge());
            skip_ws();
            if (done()) break;
            if (s_[pos_] != ',') fail("expected ',' between challenges");
            skip_list_separators();
        }
        return out;
    }

private:
    std::string_view s_;
    std::size_t pos_ = 0;
    std::size_t params_ = 0;

    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument("malformed WWW-Authenticate field: " + what + " (at offset " +
                                    std::to_string(pos_) + ")");
    }
    bool done() const { return pos_ >= s_.size(); }
    void skip_ws() {
        while (!done() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
    }
    void skip_list_separators() {
        while (!done() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == ',')) ++pos_;
    }
    std::string token() {
        const std::size_t start = pos_;
        while (!done() && is_tchar(s_[pos_])) ++pos_;
        return std::string(s_.substr(start, pos_ - start));
    }
    // After a comma: does `token BWS =` follow (another parameter of this challenge)?
    bool param_follows() const {
        std::size_t p = pos_;
        while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t' || s_[p] == ',')) ++p;
        const std::size_t start = p;
        while (p < s_.size() && is_tchar(s_[p])) ++p;
        if (p == start) return false;
        while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t')) ++p;
        if (p >= s_.size() || s_[p] != '=') return false;
        // "abc==" or "abc=" at the end or before a comma is token68 padding, not a parameter.
        ++p;
        if (p < s_.size() && s_[p] == '=') return false;
        while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t')) ++p;
        return p < s_.size() && s_[p] != ',';
    }
    std::string quoted() {
        ++pos_; // opening quote
        std::string v;
        while (true) {
            if (done()) fail("unterminated quoted string");
            const char c = s_[pos_++];
            if (c == '"') return v;
            if (c == '\\') {
                if (done()) fail("unterminated quoted string");
                const char e = s_[pos_++];
                if (static_cast<unsigned char>(e) < 0x20 && e != '\t') fail("control character in quoted string");
                v.push_back(e);
                continue;
            }
            if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
                fail("control character in quoted string");
            v.push_back(c);
        }
    }

    challenge parse_challenge() {
        challenge ch;
        ch.scheme = token();
        if (ch.scheme.empty()) fail("expected an auth-scheme");
        if (done() || s_[pos_] == ',') return ch;
        if (s_[pos_] != ' ' && s_[pos_] != '\t') fail("expected a space after the auth-scheme");
        skip_ws();
        if (done() || s_[pos_] == ',') return ch;
        if (!param_follows()) {
            // token68: its characters, then '=' padding, then the end or a comma.
            const std::size_t start = pos_;
            while (!done() && is_token68_char(s_[pos_])) ++pos_;
            if (pos_ == start) fail("expected a token68 or an auth-param");
            while (!done() && s_[pos_] == '=') ++pos_;
            ch.token68 = std::string(s_.substr(start, pos_ - start));
            return ch;
        }
        while (true) {
            skip_ws();
            std::string name = token();
            if (name.empty()) fail("expected an auth-param name");
            skip_ws();
            if (done() || s_[pos_] != '=') fail("expected '=' after an auth-param name");
            ++pos_;
            skip_ws();
            std::string value;
            if (!done() && s_[pos_] == '"')
                value = quoted();
            else {
                value = token();
                if (value.empty()) fail("expected an auth-param value");
            }
            if (++params_ > max_params) fail("more than 64 auth-params");
            for (auto& c : name) c = lower(c);
            ch.params.emplace_back(std::move(name), std::move(value));
            skip_ws();
            if (done()) return ch;
            if (s_[pos_] != ',') fail("expected ',' after an auth-param");
            if (!param_follows()) return ch;
            skip_list_separators();
        }
    }
};

} // namespace

std::optional<std::string_view> challenge::param(std::string_view name) const {
    for (const auto& [k, v] : params)
        if (iequal(k, name)) return std::string_view(v);
    return std::nullopt;
}

std::vector<challenge> parse_www_authenticate(std::string_view field) {
    if (field.size() > max_www_authenticate_bytes)
        throw std::invalid_argument("WWW-Authenticate field of " + std::to_string(field.size()) +
                                    " bytes exceeds the limit of " +
                                    std::to_string(max_www_authenticate_bytes));
    return parser(field).run();
}

const challenge* find_challenge(const std::vector<challenge>& challenges, std::string_view scheme) {
    for (const auto& c : challenges)
        if (iequal(c.scheme, scheme)) return &c;
    return nullptr;
}

} // namespace mcp::auth
