// Server-Sent Events framing (WHATWG HTML, "event stream format") for what the server writes:
// events with an id and JSON data, priming events, comments.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace mcp::http::detail {

/// One event. `data` may contain line breaks (each line becomes a data: line); our JSON never
/// does, but a custom message must not be able to inject fields. `id` empty: no id line.
inline std::string sse_event(std::string_view id, std::string_view data) {
    std::string out;
    out.reserve(data.size() + id.size() + 24);
    if (!id.empty()) out.append("id: ").append(id).push_back('\n');
    out.append("event: message\n");
    std::size_t start = 0;
    for (;;) {
        const auto nl = data.find_first_of("\r\n", start);
        out.append("data: ")
            .append(data.substr(start, nl == std::string_view::npos ? nl : nl - start))
            .push_back('\n');
        if (nl == std::string_view::npos) break;
        start = nl + 1;
        if (data[nl] == '\r' && start < data.size() && data[start] == '\n') ++start;
    }
    out.push_back('\n');
    return out;
}

/// A priming event: an id and empty data, so that the client has something to resume from
/// before any message, and the reconnection delay the client must wait (2025-11-25 polling).
inline std::string sse_priming(std::string_view id, std::chrono::milliseconds retry) {
    std::string out;
    if (!id.empty()) out.append("id: ").append(id).push_back('\n');
    out.append("retry: ").append(std::to_string(retry.count())).append("\ndata: \n\n");
    return out;
}

/// The first event of a legacy HTTP+SSE stream: where to POST.
inline std::string sse_endpoint(std::string_view uri) {
    return std::string("event: endpoint\ndata: ").append(uri).append("\n\n");
}

/// A comment line: ignored by clients; keeps intermediaries from closing an idle stream.
inline std::string sse_comment(std::string_view text) {
    return std::string(": ").append(text).append("\n\n");
}

} // namespace mcp::http::detail
