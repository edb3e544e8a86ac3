// The OpenAI-compatible sampling provider: one POST to {base_url}/chat/completions per request
// (see mcp/host/providers.hpp).
#include "host/openai_provider_impl.hpp"
#include <mcp/json/text.hpp>

#include <mcp/host/transport_factory.hpp> // url_for_display
#include <mcp/jsonrpc/error.hpp>

#include <boost/url/parse.hpp>

#include <stdexcept>

namespace mcp::host {
namespace {

bool sendable(std::string_view value) {
    return value.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

/// The API's own words for an error response: {"error": {"message": ...}}, {"error": "..."},
/// {"detail": "..."}, or the start of a text body.
std::string api_error_message(std::string_view body) {
    boost::system::error_code ec;
    if (auto v = parse_json(body, ec); v && v->is_object()) {
        const auto& o = v->get_object();
        if (const auto* e = find_object(o, "error"))
            if (auto m = find_string(*e, "message")) return utf8_prefix(*m, 1000);
        for (const char* key : {"error", "detail", "message"})
            if (auto m = find_string(o, key)) return utf8_prefix(*m, 1000);
    }
    // Anything may come back (an HTML page); the message must stay valid UTF-8 for JSON.
    std::string text = utf8_prefix(body, 200);
    for (auto& c : text)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    return text;
}

} // namespace

openai_sampling_provider::openai_sampling_provider(openai_provider_options o)
    : impl_(std::make_unique<impl>()) {
    auto u = boost::urls::parse_absolute_uri(o.base_url);
    if (!u || (u->scheme() != "http" && u->scheme() != "https") || !u->has_authority() || u->host().empty())
        throw std::invalid_argument(
            "the sampling provider's URL must be an http:// or https:// URL with a host, not \"" +
            url_for_display(o.base_url) + "\"");
    if (o.models.empty() || o.models.front().empty())
        throw std::invalid_argument("the sampling provider needs a model name");
    if (!sendable(o.api_key))
        throw std::invalid_argument("the sampling provider's API key contains CR, LF or NUL");
    for (const auto& [name, value] : o.headers)
        if (!sendable(value) || !sendable(name) || name.empty())
            throw std::invalid_argument("the sampling provider's header \"" + name + "\" cannot be sent");
    std::string base = o.base_url;
    while (!base.empty() && base.back() == '/') base.pop_back();
    impl_->endpoint = base + "/chat/completions";
    impl_->display = url_for_display(impl_->endpoint);
    impl_->options = std::move(o);
    impl_->http = std::make_unique<http::http_client>();
}

openai_sampling_provider::~openai_sampling_provider() = default;

create_message_result openai_sampling_provider::create_message(const std::string&,
                                                               const create_message_request& request,
                                                               const request_control& control) {
    const auto& o = impl_->options;
    http::fetch_request req;
    req.method = "POST";
    req.url = impl_->endpoint;
    req.headers.emplace_back("Content-Type", "application/json");
    req.headers.emplace_back("Accept", "application/json");
    if (!o.api_key.empty()) req.headers.emplace_back("Authorization", "Bearer " + o.api_key);
    for (const auto& h : o.headers) req.headers.push_back(h);
    req.body = to_json(request_body(request)); // throws invalid_params for what the API cannot carry
    req.connect_timeout = o.connect_timeout;
    req.timeout = o.timeout;
    req.verify_peer = o.verify_peer;
    req.ca_file = o.ca_file;
    // A withdrawn request closes its connection to the model at once (nobody will read the
    // answer, and the model should stop spending tokens on it): fetch throws
    // mcp::error(request_cancelled), which goes to the caller as it is.
    req.cancel = control.cancellation;

    http::fetch_response res;
    try {
        res = impl_->http->fetch(req);
    } catch (const http::fetch_error& e) {
        // fetch_error names the URL without query or user info, and never a header value.
        throw error(error_code::internal_error,
                    std::string("the model provider could not be reached: ") + e.what(),
                    json::object{{"url", impl_->display}});
    }
    if (res.status < 200 || res.status > 299) {
        std::string m =
            "the model provider at " + impl_->display + " answered HTTP " + std::to_string(res.status);
        if (!res.reason.empty()) m += " " + res.reason;
        if (auto said = api_error_message(res.body); !said.empty()) m += ": " + said;
        throw error(error_code::internal_error, m,
                    json::object{{"httpStatus", res.status}, {"url", impl_->display}});
    }
    return read_response(res.body, request);
}

} // namespace mcp::host
