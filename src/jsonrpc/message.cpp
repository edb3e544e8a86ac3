// JSON-RPC 2.0 message classification and serialization.
#include <mcp/jsonrpc/message.hpp>
#include <mcp/jsonrpc/wire_message.hpp>

namespace mcp {

json::object error::to_json() const {
    json::object o;
    o["code"] = code_;
    o["message"] = what();
    if (!data_.is_null()) o["data"] = data_;
    return o;
}

error error::from_json(const json::value& v) {
    const auto* o = v.if_object();
    if (!o) return error(error_code::internal_error, "malformed error object in response");
    auto code = find_int(*o, "code");
    auto message = find_string(*o, "message");
    if (!code || !message) return error(error_code::internal_error, "error object without code or message");
    const auto* data = o->if_contains("data");
    return error(static_cast<int>(*code), std::string(*message), data ? *data : json::value());
}

} // namespace mcp

namespace mcp::jsonrpc {

json::value id_to_json(const request_id& id) {
    if (const auto* i = std::get_if<std::int64_t>(&id)) return *i;
    return json::value(std::get<std::string>(id));
}

std::string id_to_string(const request_id& id) {
    if (const auto* i = std::get_if<std::int64_t>(&id)) return std::to_string(*i);
    std::string out;
    append_json_string(out, std::get<std::string>(id));
    return out;
}

std::optional<request_id> read_id(const json::value& v) {
    switch (v.kind()) {
    case json::kind::string:
        return request_id(std::string(v.get_string()));
    case json::kind::int64:
        return request_id(v.get_int64());
    case json::kind::uint64:
        if (v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
            return request_id(static_cast<std::int64_t>(v.get_uint64()));
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

namespace {

// What kind of message `v` is, or why it is none: every check of classify(), moving nothing.
struct inspection {
    jsonrpc::kind kind = kind::invalid;
    std::optional<request_id> id; ///< when it could be read, valid or not
    std::optional<mcp::error> err;
};

inspection failed(std::string message, std::optional<request_id> id = std::nullopt,
                  int code = error_code::invalid_request) {
    inspection r;
    r.err.emplace(code, std::move(message));
    r.id = std::move(id);
    return r;
}

inspection inspect(const json::value& v) {
    if (v.is_array()) return {kind::batch, std::nullopt, std::nullopt};
    const auto* o = v.if_object();
    if (!o) return failed("Invalid Request: a JSON-RPC message must be a JSON object");

    std::optional<request_id> id;
    const json::value* id_v = o->if_contains("id");
    if (id_v) id = read_id(*id_v);

    const auto version = find_string(*o, "jsonrpc");
    if (!version || *version != "2.0") return failed("Invalid Request: \"jsonrpc\" must be \"2.0\"", id);

    if (const json::value* method_v = o->if_contains("method")) {
        if (!method_v->is_string()) return failed("Invalid Request: \"method\" must be a string", id);
        if (const auto* p = o->if_contains("params")) {
            if (p->is_array())
                return failed("Invalid params: MCP params must be an object, not an array", id,
                              error_code::invalid_params);
            if (!p->is_object() && !p->is_null())
                return failed("Invalid Request: \"params\" must be an object", id);
        }
        if (!id_v) return {kind::notification, std::nullopt, std::nullopt};
        if (!id) {
            if (id_v->is_null()) return failed("Invalid Request: \"id\" must not be null");
            return failed("Invalid Request: \"id\" must be a string or an integer");
        }
        return {kind::request, std::move(id), std::nullopt};
    }

    // A response: result or error, with the id of the request it answers.
    const bool has_result = o->contains("result");
    const bool has_error = o->contains("error");
    if (has_result && has_error)
        return failed("Invalid Request: a response has both \"result\" and \"error\"", id);
    if (!has_result && !has_error)
        return failed("Invalid Request: message has neither \"method\", \"result\" nor \"error\"", id);
    if (has_result && !id)
        return failed("Invalid Request: a result response needs a string or integer \"id\"");
    return {has_result ? kind::response : kind::error, std::move(id), std::nullopt};
}

} // namespace

incoming_message incoming_message::from_value(json::value v) {
    auto looked = inspect(v);
    incoming_message m;
    m.value = std::move(v);
    m.kind = looked.kind;
    m.id = std::move(looked.id);
    m.error = std::move(looked.err);
    return m;
}

std::optional<mcp::error> check(const json::value& v, std::optional<request_id>* id) {
    auto r = inspect(v);
    if (id) *id = std::move(r.id);
    if (r.kind == kind::batch)
        return mcp::error(error_code::invalid_request,
                          "Invalid Request: a JSON-RPC message must be a JSON object");
    return std::move(r.err);
}

classify_result classify(incoming_message&& m) {
    classify_result r;
    r.id = m.id;
    if (m.kind == kind::invalid || m.kind == kind::batch) {
        r.err = m.error ? std::move(m.error)
                        : mcp::error(error_code::invalid_request,
                                     "Invalid Request: a JSON-RPC message must be a JSON object");
        return r;
    }
    auto& o = m.value.get_object();
    switch (m.kind) {
    case kind::request:
    case kind::notification: {
        std::string method(o.at("method").get_string());
        json::value params;
        if (auto* p = o.if_contains("params")) params = std::move(*p);
        if (m.kind == kind::notification)
            r.msg = notification{std::move(method), std::move(params)};
        else
            r.msg = request{std::move(*m.id), std::move(method), std::move(params)};
        return r;
    }
    case kind::response:
        r.msg = response{std::move(*m.id), std::move(o.at("result"))};
        return r;
    default:
        r.msg = error_response{std::move(m.id), mcp::error::from_json(o.at("error"))};
        return r;
    }
}

classify_result classify(json::value&& v) {
    return classify(incoming_message::from_value(std::move(v)));
}

namespace {
void append_id(std::string& out, const request_id& id) {
    if (const auto* i = std::get_if<std::int64_t>(&id))
        out += std::to_string(*i);
    else
        append_json_string(out, std::get<std::string>(id));
}
} // namespace

void serialize_request(std::string& out, const request_id& id, std::string_view method,
                       const json::value& params) {
    out += R"({"jsonrpc":"2.0","id":)";
    append_id(out, id);
    out += R"(,"method":)";
    append_json_string(out, method);
    if (!params.is_null()) {
        out += R"(,"params":)";
        append_json(out, params);
    }
    out.push_back('}');
}

void serialize_notification(std::string& out, std::string_view method, const json::value& params) {
    out += R"({"jsonrpc":"2.0","method":)";
    append_json_string(out, method);
    if (!params.is_null()) {
        out += R"(,"params":)";
        append_json(out, params);
    }
    out.push_back('}');
}

void serialize_result(std::string& out, const request_id& id, const json::value& result) {
    out += R"({"jsonrpc":"2.0","id":)";
    append_id(out, id);
    out += R"(,"result":)";
    if (result.is_null())
        out += "{}";
    else
        append_json(out, result);
    out.push_back('}');
}

void serialize_error(std::string& out, const std::optional<request_id>& id, const mcp::error& e,
                     unknown_id_style style) {
    out += R"({"jsonrpc":"2.0",)";
    if (id) {
        out += R"("id":)";
        append_id(out, *id);
        out.push_back(',');
    } else if (style == unknown_id_style::null) {
        out += R"("id":null,)";
    }
    out += R"("error":)";
    append_json(out, e.to_json());
    out.push_back('}');
}

std::string serialize(const message& m, unknown_id_style style) {
    std::string out;
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, request>)
                serialize_request(out, x.id, x.method, x.params);
            else if constexpr (std::is_same_v<T, notification>)
                serialize_notification(out, x.method, x.params);
            else if constexpr (std::is_same_v<T, response>)
                serialize_result(out, x.id, x.result);
            else
                serialize_error(out, x.id, x.err, style);
        },
        m);
    return out;
}

} // namespace mcp::jsonrpc
