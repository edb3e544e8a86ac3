// A remote server's transport, watched for a server that has gone away (see watched_transport.hpp).
#include "host/watched_transport.hpp"

#include <mcp/jsonrpc/error.hpp>

namespace mcp::host::detail {

watched_transport::watched_transport(transport_ptr inner, lost_handler on_lost)
    : transport_decorator(std::move(inner)), on_lost_(std::move(on_lost)) {}

std::string watched_transport::unreachable_error(std::string_view text) {
    // Most messages are not errors at all: look closer only when the code is in the text.
    if (text.find("-32010") == std::string_view::npos) return {};
    boost::system::error_code ec;
    auto v = parse_json(text, ec);
    if (!v || !v->is_object()) return {};
    const auto* err = find_object(v->get_object(), "error");
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

void watched_transport::look(std::string_view message) {
    auto why = unreachable_error(message);
    if (why.empty()) return;
    remember(why);
    if (on_lost_) on_lost_(why);
}

void watched_transport::start(transport_handler h) {
    // The message goes to the session first: the request that failed gets its answer either way.
    // Stray output is noted before the session sees it: what the session does with it (answer
    // with a parse error to a server that is gone) may end the connection at once.
    const auto wrap =
        [this](std::function<void(std::string_view)> f) -> std::function<void(std::string_view)> {
        if (!f) return {};
        return [this, f = std::move(f)](std::string_view m) {
            const bool not_json = stray(m);
            f(m);
            if (!not_json) look(m);
        };
    };
    h.on_message = wrap(std::move(h.on_message));
    h.on_last_message = wrap(std::move(h.on_last_message));
    if (h.on_message_from)
        h.on_message_from = [this, f = std::move(h.on_message_from)](
                                std::string_view m, std::shared_ptr<const message_origin> o) {
            const bool not_json = stray(m);
            f(m, std::move(o));
            if (!not_json) look(m);
        };
    h.on_error = [this, f = std::move(h.on_error)](std::string_view what) {
        remember(std::string(what));
        if (f) f(what);
    };
    // Always set, so that the failure is known here; unset by the user, it goes to on_error.
    h.on_failure = [this, f = std::move(h.on_failure), on_error = h.on_error](std::string_view why) {
        {
            std::lock_guard lock(mu_);
            failure_ = std::string(why);
        }
        if (f)
            f(why);
        else if (on_error)
            on_error(why);
    };
    transport_decorator::start(std::move(h));
}

} // namespace mcp::host::detail
