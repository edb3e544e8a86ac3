// http/client/errors.cpp - see errors.hpp.
#include "errors.hpp"

#include "http/core/response_format.hpp" // reason_phrase

namespace mcp::http::detail {

std::string status_message(int status, std::string_view reason, std::string_view url_display) {
    std::string r(reason);
    if (r.empty()) {
        r = std::string(core::detail::reason_phrase(status));
        if (r == "Unknown") r.clear();
    }
    std::string m = "HTTP " + std::to_string(status);
    if (!r.empty()) m += " " + utf8_prefix(r, 100);
    m += " from ";
    m += url_display;
    return m;
}

std::string synthesize_error(const jsonrpc::request_id& id, const http_failure& f) {
    json::object data;
    if (f.status != 0) {
        data["httpStatus"] = f.status;
        data["body"] = utf8_prefix(f.body, error_body_bytes);
    }
    data["url"] = f.url;
    if ((f.status == 401 || f.status == 403) && !f.www_authenticate.empty())
        data["wwwAuthenticate"] = utf8_prefix(f.www_authenticate, 4096);
    if (f.session_expired) {
        data["sessionExpired"] = true;
        data["requestRefused"] = f.request_refused;
    }
    std::string out;
    jsonrpc::serialize_error(out, id, mcp::error(error_code::http_error, f.message, std::move(data)));
    return out;
}

std::string local_error(const jsonrpc::request_id& id, int code, std::string message) {
    std::string out;
    jsonrpc::serialize_error(out, id, mcp::error(code, std::move(message)));
    return out;
}

} // namespace mcp::http::detail
