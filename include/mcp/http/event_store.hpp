// mcp/http/event_store.hpp - where a Streamable HTTP server keeps the SSE events of each session's
// streams so that a client whose connection broke can resume with Last-Event-ID (2025-03-26 ..
// 2025-11-25; the stateless 2026-07-28 era has no resumption).
//
// The interface is what a shared store (Redis, a later issue) implements so that any replica
// behind a load balancer can replay a stream; memory_event_store is the bounded in-process one.
//
// Ids. A stream id is "<copy>.<n>": <copy> is 16 hex digits (64 random bits) drawn when a process
// creates or restores its copy of the session, <n> counts that copy's streams (0 is its
// standalone GET stream). An event id is "<stream>-<sequence>". So two replicas serving one
// session never issue the same id, and an event's stream (and its place in it) can be read
// from the id alone, with no state of the process that wrote it (parse_event_id).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::http {

struct stored_event {
    std::string id;   ///< the SSE event id: "<stream>-<sequence>"
    std::string data; ///< one JSON-RPC message (empty for a priming event)
};

/// The parts of an event id "<stream>-<sequence>" (see above); nullopt when `id` is not one.
struct event_id_parts {
    std::string_view stream;
    std::uint64_t sequence = 0;
};
std::optional<event_id_parts> parse_event_id(std::string_view id) noexcept;

class event_store {
public:
    virtual ~event_store() = default;
    /// Remember event `id` (unique within the session) of stream `stream` of session `session`.
    virtual void append(std::string_view session, std::string_view stream, stored_event event) = 0;
    /// The events of the stream that event `last_event_id` belongs to, after it, in order; and
    /// that stream's id. nullopt when the id is unknown or its stream was evicted.
    struct replay {
        std::string stream;
        std::vector<stored_event> events;
    };
    virtual std::optional<replay> replay_after(std::string_view session, std::string_view last_event_id) = 0;
    /// Forget a stream (its response went out and its replay window passed) or a whole session.
    virtual void forget_stream(std::string_view session, std::string_view stream) = 0;
    virtual void forget_session(std::string_view session) = 0;
};

/// Bounded in-memory store: at most `max_bytes_per_session` of event data per session and
/// `max_total_bytes` overall; the oldest events go first. A client resuming from an evicted
/// event (replay_after: nullopt) cannot be given what followed it: mcp::http::server answers
/// its GET with 400 Bad Request, as for an id it never issued (see mcp/http/server.hpp).
class memory_event_store final : public event_store {
public:
    explicit memory_event_store(std::size_t max_bytes_per_session = std::size_t{1} << 20,
                                std::size_t max_total_bytes = std::size_t{64} << 20);
    ~memory_event_store() override;
    void append(std::string_view session, std::string_view stream, stored_event event) override;
    std::optional<replay> replay_after(std::string_view session, std::string_view last_event_id) override;
    void forget_stream(std::string_view session, std::string_view stream) override;
    void forget_session(std::string_view session) override;
    std::size_t bytes() const; ///< event data held now

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

} // namespace mcp::http
