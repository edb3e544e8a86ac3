// Sealing and opening MRTR requestState tokens (see request_state.hpp).
#include "server/request_state.hpp"

#include "crypto/crypto.hpp"

#include <mcp/json/base64.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <openssl/crypto.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

namespace mcp::detail {
namespace {

// base64url without padding (RFC 4648 §5): the token travels in JSON, and may be logged or put
// in a header by a proxy; no '+', '/' or '='.
std::string to_base64url(std::string_view bytes) {
    std::string s = base64::encode(bytes);
    for (auto& c : s) {
        if (c == '+')
            c = '-';
        else if (c == '/')
            c = '_';
    }
    while (!s.empty() && s.back() == '=') s.pop_back();
    return s;
}

std::optional<std::string> from_base64url(std::string_view text) {
    std::string s(text);
    for (auto& c : s) {
        if (c == '-')
            c = '+';
        else if (c == '_')
            c = '/';
        else if (c == '+' || c == '/' || c == '=')
            return std::nullopt; // not base64url
    }
    while (s.size() % 4 != 0) s.push_back('=');
    return base64::decode(s);
}

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

void append_canonical(std::string& out, const json::value& v) {
    if (const auto* o = v.if_object()) {
        std::vector<const json::key_value_pair*> members;
        members.reserve(o->size());
        for (const auto& kv : *o) members.push_back(&kv);
        std::sort(members.begin(), members.end(),
                  [](const auto* a, const auto* b) { return a->key() < b->key(); });
        out.push_back('{');
        for (std::size_t i = 0; i < members.size(); ++i) {
            if (i) out.push_back(',');
            append_json_string(out, members[i]->key());
            out.push_back(':');
            append_canonical(out, members[i]->value());
        }
        out.push_back('}');
    } else if (const auto* a = v.if_array()) {
        out.push_back('[');
        for (std::size_t i = 0; i < a->size(); ++i) {
            if (i) out.push_back(',');
            append_canonical(out, (*a)[i]);
        }
        out.push_back(']');
    } else {
        append_json(out, v);
    }
}

} // namespace

std::string canonical_json(const json::value& v) {
    std::string out;
    append_canonical(out, v);
    return out;
}

std::string request_binding(std::string_view method, const json::object& params) {
    json::object salient;
    salient["method"] = method;
    for (const char* key : {"name", "uri", "arguments"})
        if (const auto* v = params.if_contains(key)) salient[key] = *v;
    return sha256_hex(canonical_json(salient));
}

std::string seal_request_state(const request_state_payload& p, std::string_view key) {
    json::object o;
    o["v"] = 1;
    o["b"] = p.binding;
    o["p"] = p.principal;
    o["x"] = p.expires_ms;
    o["r"] = p.round;
    o["a"] = p.answers;
    if (!p.app_state.is_null()) o["s"] = p.app_state;
    const std::string payload = to_json(o);
    return to_base64url(payload) + "." + to_base64url(hmac_sha256(key, payload));
}

std::optional<request_state_payload> open_request_state(std::string_view token, std::string_view key,
                                                        std::string_view binding, std::string_view principal,
                                                        std::string& why) {
    const auto dot = token.find('.');
    if (dot == std::string_view::npos) {
        why = "malformed";
        return std::nullopt;
    }
    auto payload = from_base64url(token.substr(0, dot));
    auto mac = from_base64url(token.substr(dot + 1));
    if (!payload || !mac) {
        why = "malformed";
        return std::nullopt;
    }
    const std::string expected = hmac_sha256(key, *payload);
    if (mac->size() != expected.size() || CRYPTO_memcmp(mac->data(), expected.data(), expected.size()) != 0) {
        why = "its integrity check failed";
        return std::nullopt;
    }
    // From here on the payload is ours: a parse failure would be a bug, not an attack.
    boost::system::error_code ec;
    auto parsed = parse_json(*payload, ec);
    if (!parsed || !parsed->is_object()) {
        why = "malformed";
        return std::nullopt;
    }
    const auto& o = parsed->get_object();
    request_state_payload p;
    p.binding = std::string(find_string(o, "b").value_or(""));
    p.principal = std::string(find_string(o, "p").value_or(""));
    p.expires_ms = find_int(o, "x").value_or(0);
    p.round = static_cast<int>(find_int(o, "r").value_or(1));
    if (const auto* a = find_object(o, "a")) p.answers = *a;
    if (const auto* s = o.if_contains("s")) p.app_state = *s;
    if (p.expires_ms < now_ms()) {
        why = "it has expired";
        return std::nullopt;
    }
    if (p.binding != binding) {
        why = "it was issued for another request";
        return std::nullopt;
    }
    if (p.principal != principal) {
        why = "it was issued to another principal";
        return std::nullopt;
    }
    return p;
}

} // namespace mcp::detail
