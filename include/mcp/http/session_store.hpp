// mcp/http/session_store.hpp - the record of each Streamable HTTP session (initialize era) kept
// outside the process's memory of live connections: which session ids exist, what each
// negotiated and set (enough for any process to serve it), and when it was last used.
//
// The HTTP server (mcp/http/server.hpp) consults it for every request that carries an
// Mcp-Session-Id:
//   * a session this process holds is touched (its last use is the store's to know, because
//     requests of one session may reach different replicas); when touch finds no record, the
//     session ended elsewhere (DELETE, expiry on another replica): the local copy is closed and
//     the request gets 404. When the record's version moved, another replica changed the
//     session (log level, subscriptions) and the local copy takes the change first;
//   * a session this process does not hold is looked up with get(): found, it is restored from
//     the record's data (mcp::server::restore_session) and served; not found, 404;
//   * idle sessions are found with idle_since() by any replica's timer, removed from the store
//     and closed wherever a copy is held; DELETE removes the record.
// A shared implementation (Redis, a later issue) lets replicas behind a load balancer serve any
// request of any session; memory_session_store is the in-process default.
//
// What a shared store does not give (mcp::http::server documents it too): a request the server
// sent to the client is answered to the process that sent it, so a response that reaches
// another replica is dropped; notifications raised on one replica reach only the streams that
// replica holds (a shared bus is a later issue); a request in progress on one replica cannot be
// cancelled through another.
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/server/server_session.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::http {

struct session_record {
    std::string id;
    /// Empty until initialize is answered; then encode_session_data() of the session's
    /// snapshot (the format is documented there).
    json::object data;
    std::chrono::system_clock::time_point last_used;
    /// Set by the store: 1 for the first put of an id, one more for each later put. Replicas
    /// compare it with the version their copy reflects to notice changes made elsewhere.
    std::uint64_t version = 0;
    /// Who created the session (server_options::authenticate's principal; "" without
    /// authentication). A request of another principal is answered as for an unknown session.
    std::string principal;
};

/// Implementations must be thread-safe: every I/O thread and handler thread of the server
/// calls them. Each call is one operation on the shared state (a round trip for a remote store),
/// made on the request's path: a slow store slows every session request.
class session_store {
public:
    virtual ~session_store() = default;
    /// Create or replace the record `record.id` (its `version` is ignored). Returns the version
    /// the record now has.
    virtual std::uint64_t put(const session_record& record) = 0;
    /// Replace the record `record.id` only if it exists: a session's state that changes just as
    /// the session ends (DELETE, expiry, on any replica) must not bring the session back.
    /// Returns the record's new version, or nullopt when there is no such record (then nothing
    /// is created). The default is get() then put(); a store shared by replicas should make it
    /// one atomic operation.
    virtual std::optional<std::uint64_t> update(const session_record& record) {
        if (!get(record.id)) return std::nullopt;
        return put(record);
    }
    virtual std::optional<session_record> get(std::string_view id) = 0;
    /// Mark the session used at `when`. Returns the record's version, or nullopt when there is
    /// no such record (then nothing is created).
    virtual std::optional<std::uint64_t> touch(std::string_view id,
                                               std::chrono::system_clock::time_point when) = 0;
    virtual void remove(std::string_view id) = 0;
    /// Ids of sessions not used since `cutoff`.
    virtual std::vector<std::string> idle_since(std::chrono::system_clock::time_point cutoff) = 0;
};

class memory_session_store final : public session_store {
public:
    memory_session_store();
    ~memory_session_store() override;
    std::uint64_t put(const session_record& record) override;
    std::optional<std::uint64_t> update(const session_record& record) override;
    std::optional<session_record> get(std::string_view id) override;
    std::optional<std::uint64_t> touch(std::string_view id,
                                       std::chrono::system_clock::time_point when) override;
    void remove(std::string_view id) override;
    std::vector<std::string> idle_since(std::chrono::system_clock::time_point cutoff) override;
    std::size_t size() const;

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

/// session_record::data: the snapshot of an initialized session (mcp::session_snapshot), the one
/// place its JSON shape is defined. Version 1:
///
///   {"v": 1,
///    "protocolVersion": "2025-11-25",          negotiated revision (initialize era)
///    "clientInfo": {"name": .., "version": .., ...},   Implementation, as 2025-11-25 writes it
///    "clientCapabilities": {...},              ClientCapabilities as the client sent them
///    "serverCapabilities": {...},              what the initialize result declared, as
///                                              2026-07-28 writes ServerCapabilities (every
///                                              field a declaration can have)
///    "initialized": true,                      notifications/initialized arrived
///    "logLevel": "warning",                    absent: logging/setLevel was not called
///    "subscriptions": ["file:///a", ...]}      resources/subscribe URIs, sorted
///
/// A reader ignores members it does not know; a change that old readers would misread gets a
/// new "v", and a record of a version this library does not read is not restored (the client
/// gets 404 and initializes again).
json::object encode_session_data(const session_snapshot& snapshot);
/// The snapshot in `data`; nullopt when it is not version 1 or does not parse.
std::optional<session_snapshot> decode_session_data(const json::object& data);

} // namespace mcp::http
