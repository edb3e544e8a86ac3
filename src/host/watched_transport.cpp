// A remote server's transport, watched for a server that has gone away (see watched_transport.hpp).
#include "host/watched_transport.hpp"

#include <mcp/jsonrpc/error.hpp>
#include <mcp/jsonrpc/wire_message.hpp>

namespace mcp::host::detail {

watched_transport::watched_transport(transport_ptr inner, lost_handler on_lost)
    : transport_decorator(std::move(inner)), on_lost_(std::move(on_lost)) {}

std::string watched_transport::unreachable_error(const jsonrpc::incoming_message& m) {
    if (m.kind != jsonrpc::kind::error) return {};
    const auto* err = find_object(m.value.get_object(), "error");
    if (!err || find_int(*err, "code") != error_code::http_error) return {};
    if (const auto* data = find_object(*err, "data"); data && data->contains("httpStatus")) return {};
    const auto message = find_string(*err, "message");
    return message ? std::string(*message) : std::string("the server did not answer");
}

void watched_transport::remember(std::string problem) {
    std::lock_guard lock(mu_);
    last_problem_ = std::move(problem);
}

std::string watched_transport::last_problem() const {
    std::lock_guard lock(mu_);
    return last_problem_;
}

std::string watched_transport::failure() const {
    std::lock_guard lock(mu_);
    return failure_;
}

std::string watched_transport::first_stray_output() const {
    std::lock_guard lock(mu_);
    return stray_;
}

bool watched_transport::stray(std::string_view message) {
    // JSON-RPC is an object or an array: anything else is stray output. The first is kept.
    const auto first = message.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return true;
    if (message[first] != '{' && message[first] != '[') {
        std::lock_guard lock(mu_);
        if (stray_.empty()) {
            // Shown in messages (and JSON output): printable ASCII as it is, other bytes escaped.
            static const char* hex = "0123456789abcdef";
            for (unsigned char c : message.substr(0, 200)) {
                if (c < 0x20 || c >= 0x7f || c == '\\' || c == '"')
                    stray_ += std::string("\\x") + hex[c >> 4] + hex[c & 15];
                else
                    stray_.push_back(static_cast<char>(c));
            }
            if (message.size() > 200) stray_ += "...";
        }
        return true;
    }
    return false;
}

void watched_transport::start(transport_handler h) {
    // The message goes to the session first: the request that failed gets its answer either way.
    // Stray output is noted before the session sees it: what the session does with it (answer
    // with a parse error to a server that is gone) may end the connection at once.
    if (h.on_message)
        h.on_message = [this, f = std::move(h.on_message)](jsonrpc::incoming_message&& m) {
            if (m.text.empty() && m.error && !m.unusable_response) remember(m.error->what()); // oversize
            const bool not_json = !m.text.empty() && stray(m.text);
            const auto why = not_json ? std::string() : unreachable_error(m);
            f(std::move(m));
            if (why.empty()) return;
            remember(why);
            if (on_lost_) on_lost_(why);
        };
    h.on_error = [this, f = std::move(h.on_error)](std::string_view what, transport_handler::severity level) {
        if (level == transport_handler::severity::failure) {
            std::lock_guard lock(mu_);
            failure_ = std::string(what);
        } else {
            remember(std::string(what));
        }
        if (f) f(what, level);
    };
    transport_decorator::start(std::move(h));
}

} // namespace mcp::host::detail
