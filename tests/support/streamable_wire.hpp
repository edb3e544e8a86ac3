// Bytes of the Streamable HTTP transport for tests that speak it by hand over raw_client: the
// requests a client sends (POST with both Accept types, GET/DELETE), the session headers, and a
// reader of the SSE events of a chunked response as they arrive.
#pragma once

#include "support/raw_http_client.hpp"

#include <mcp/json/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp::test {

inline const std::string accept_both = "Accept: application/json, text/event-stream\r\n";

/// POST /mcp with a JSON body; `extra`: more header lines, each ending in CRLF.
inline std::string http_post(std::string_view body, std::string_view extra = "",
                             std::string_view host = "127.0.0.1") {
    return "POST /mcp HTTP/1.1\r\nHost: " + std::string(host) +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nContent-Type: application/json\r\n" +
           accept_both + std::string(extra) + "\r\n" + std::string(body);
}

/// A request without a body (GET, DELETE, ...).
inline std::string http_request(std::string_view method, std::string_view target,
                                std::string_view extra = "") {
    return std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
           std::string(extra) + "\r\n";
}

/// The headers of a request on session `sid` of revision `version`.
inline std::string session_headers(const std::string& sid, std::string_view version = "2025-11-25") {
    return "Mcp-Session-Id: " + sid + "\r\nMCP-Protocol-Version: " + std::string(version) + "\r\n";
}

/// Open the legacy HTTP+SSE stream (GET /sse, `extra` header lines) on `stream` and return the
/// message endpoint its first event names ("/messages?sessionId=..."); "" when none came.
inline std::string open_legacy_stream(raw_client& stream, std::string_view extra = "") {
    if (!stream.send(http_request("GET", "/sse", "Accept: text/event-stream\r\n" + std::string(extra))))
        return {};
    auto head = stream.read_head();
    if (!head || head->status != 200) return {};
    auto chunk = stream.read_chunk();
    if (!chunk || chunk->find("event: endpoint") == std::string::npos) return {};
    const auto at = chunk->find("data: ");
    if (at == std::string::npos) return {};
    return chunk->substr(at + 6, chunk->find('\n', at) - at - 6);
}

/// A POST of a JSON body to the legacy message endpoint `endpoint` (what open_legacy_stream
/// returned); `extra`: more header lines, each ending in CRLF.
inline std::string legacy_post(std::string_view endpoint, std::string_view body,
                               std::string_view extra = "") {
    return "POST " + std::string(endpoint) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + std::string(extra) +
           "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
           std::string(body);
}

inline json::object body_json(const response& r) {
    return json::parse(r.body).as_object();
}

struct sse_event {
    std::string id, data;
    std::optional<int> retry;
};

/// SSE events read off a chunked response, as they arrive. Comments (keep-alive) alone are
/// skipped.
class sse_reader {
public:
    explicit sse_reader(raw_client& c) : c_(c) {}

    std::optional<sse_event> next() {
        for (;;) {
            const auto end = pending_.find("\n\n");
            if (end != std::string::npos) {
                const std::string block = pending_.substr(0, end);
                pending_.erase(0, end + 2);
                if (auto e = parse(block)) return e;
                continue;
            }
            auto chunk = c_.read_chunk();
            if (!chunk || chunk->empty()) return std::nullopt; // end of the stream
            pending_ += *chunk;
        }
    }

    /// The next event with data (priming events skipped), as a JSON object.
    std::optional<json::object> next_message() {
        while (auto e = next())
            if (!e->data.empty()) return json::parse(e->data).as_object();
        return std::nullopt;
    }

private:
    static std::optional<sse_event> parse(const std::string& block) {
        sse_event e;
        bool any = false;
        std::size_t pos = 0;
        while (pos <= block.size()) {
            const auto nl = block.find('\n', pos);
            const std::string line =
                block.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
            if (line.rfind("id: ", 0) == 0)
                e.id = line.substr(4), any = true;
            else if (line.rfind("data: ", 0) == 0)
                e.data += line.substr(6), any = true;
            else if (line.rfind("retry: ", 0) == 0)
                e.retry = std::stoi(line.substr(7)), any = true;
            if (nl == std::string::npos) break;
            pos = nl + 1;
        }
        if (!any) return std::nullopt;
        return e;
    }

    raw_client& c_;
    std::string pending_;
};

} // namespace mcp::test
