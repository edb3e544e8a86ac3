// The messages that cross the transport seam (see mcp/jsonrpc/wire_message.hpp). Reading a
// value (kind, id, what is wrong) is in message.cpp, beside classify().
#include <mcp/jsonrpc/envelope_scan.hpp>
#include <mcp/jsonrpc/wire_message.hpp>

namespace mcp {

namespace {
bool ascii_iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}
} // namespace

const std::string* message_origin::header(std::string_view name) const noexcept {
    for (const auto& [n, v] : headers)
        if (ascii_iequals(n, name)) return &v;
    return nullptr;
}

} // namespace mcp

namespace mcp::jsonrpc {

std::string_view incoming_message::method() const noexcept {
    if (kind != kind::request && kind != kind::notification) return {};
    return value.get_object().at("method").get_string();
}

const json::value& incoming_message::params() const noexcept {
    static const json::value none;
    if (kind != kind::request && kind != kind::notification) return none;
    const auto* p = value.get_object().if_contains("params");
    return p ? *p : none;
}

incoming_message incoming_message::parse(std::string_view text) {
    boost::system::error_code ec;
    auto parsed = parse_json(text, ec);
    if (parsed) {
        auto m = from_value(std::move(*parsed));
        m.text = text;
        return m;
    }
    // A response that cannot be used (invalid UTF-8, nested too deep, not JSON) still ends the
    // request it answers, when a shallow scan can tell which one that is.
    envelope_scan scan;
    scan.feed(text);
    if (const auto id = scan.response_id()) {
        auto m = refused(
            mcp::error(error_code::internal_error, "it is not valid JSON text (" + ec.message() + ")"), *id);
        m.text = text;
        return m;
    }
    auto m = refused(mcp::error(error_code::parse_error, "Parse error: " + ec.message()));
    m.text = text;
    return m;
}

incoming_message incoming_message::refused(mcp::error e, std::optional<std::int64_t> response_id) {
    incoming_message m;
    m.error = std::move(e);
    m.unusable_response = response_id;
    return m;
}

std::vector<request_id> request_ids(const incoming_message& m) {
    std::vector<request_id> ids;
    if (m.kind == kind::request) ids.push_back(*m.id);
    if (m.kind != kind::batch) return ids;
    for (const auto& e : m.value.get_array()) {
        const auto* o = e.if_object();
        if (!o || !o->contains("method")) continue;
        if (const auto* id = o->if_contains("id"))
            if (auto read = read_id(*id)) ids.push_back(std::move(*read));
    }
    return ids;
}

outgoing_message::outgoing_message(std::string t) : text(std::move(t)) {
    boost::system::error_code ec;
    auto parsed = parse_json(text, ec);
    if (!parsed) return;
    auto m = incoming_message::from_value(std::move(*parsed));
    kind = m.kind;
    id = m.id;
    method = std::string(m.method());
    if (kind == kind::batch)
        params = std::move(m.value);
    else if (kind == kind::request || kind == kind::notification)
        if (auto* p = m.value.get_object().if_contains("params")) params = std::move(*p);
}

outgoing_message notification_message(std::string method, json::value params,
                                      std::optional<request_id> related) {
    outgoing_message m;
    m.kind = kind::notification;
    serialize_notification(m.text, method, params);
    m.method = std::move(method);
    m.params = std::move(params);
    m.related = std::move(related);
    return m;
}

} // namespace mcp::jsonrpc
