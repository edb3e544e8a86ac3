// mcp/server/handle_backend.hpp - where mcp::handle_store keeps its values: an interface, so that
// replicas of a server can share one store, and the bounded in-memory default.
//
// In the 2026-07-28 era any replica behind a load balancer may serve any request, so a handle
// created by one replica must be usable on the next request, wherever it lands. handle_store<T>
// converts its values to JSON and keeps them in a handle_backend; give every replica's store the
// same backend (a shared implementation: Redis, a database) and a handle works everywhere.
// memory_handle_backend is the default, for one process (or for replicas inside one process, as
// the tests use it).
//
// A backend stores, per handle: the value (JSON), the principal the handle is bound to ("" for
// anyone), and an expiry. It decides nothing about messages or types; handle_store does.
//
// Rules every implementation keeps (the memory backend is the reference):
//   * Principals. A record bound to a principal exists for that principal only: for any other
//     caller every operation answers as for an unknown handle, and renews, changes or erases
//     nothing. A record bound to "" is for everyone.
//   * Expiry. A record is live until its expiry, then `expired`: never live again. The backend
//     may keep answering `expired` for a while (the memory backend: one more lifetime) so that a
//     late caller learns what happened, then `unknown`. `renew` (sliding lifetimes) moves the
//     expiry of a live record to now + renew, in the same operation as the read or change.
//   * Atomicity. update() is a read-modify-write that no other put/update/erase of the same
//     handle interleaves with: two updates never lose a change, and get() never sees half of
//     one. Different handles do not wait for each other.
// Every member may be called from many threads at once.
#pragma once

#include <mcp/json/json.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {

/// What a backend found for a handle, as seen by the caller's principal.
enum class handle_state {
    live,    ///< the value is there
    expired, ///< it was there; its lifetime has passed
    unknown, ///< never stored, erased, forgotten after expiry, or bound to another principal
};

struct handle_lookup {
    handle_state state = handle_state::unknown;
    json::value value; ///< the value when live, else null
};

class handle_backend {
public:
    virtual ~handle_backend() = default;

    /// Store a new record: `value` under `handle` (chosen by handle_store: a prefix and 128
    /// random bits, never one in use), bound to `principal` ("" for anyone), live for `lifetime`.
    /// False, with nothing stored, when the backend is full.
    virtual bool put(const std::string& handle, const std::string& principal, json::value value,
                     std::chrono::milliseconds lifetime) = 0;

    /// The record of `handle` as `principal` may see it; when live and `renew` is set, its
    /// expiry is moved to now + *renew.
    virtual handle_lookup get(std::string_view handle, std::string_view principal,
                              std::optional<std::chrono::milliseconds> renew) = 0;

    /// When the record is live for `principal`: store change(current value) in its place (and
    /// renew it as get does). Returns the state found; `change` runs only for `live`. If
    /// `change` throws, nothing is stored and the exception propagates. A backend over a remote
    /// store may run `change` again after a conflicting write (optimistic concurrency), so it must
    /// do nothing but compute the new value; the memory backend runs it exactly once, holding
    /// the handle's lock.
    virtual handle_state update(std::string_view handle, std::string_view principal,
                                std::optional<std::chrono::milliseconds> renew,
                                const std::function<json::value(const json::value& current)>& change) = 0;

    /// Forget the record of `handle` (for `principal`). True when it was live; an expired record
    /// is forgotten too (false), one of another principal is left alone (false).
    virtual bool erase(std::string_view handle, std::string_view principal) = 0;

    /// Live records (ones expired but not yet swept may be counted).
    virtual std::size_t size() const = 0;
    /// At most this many live records, when the backend has such a bound (put() then fails
    /// beyond it); used in the message a full store gives.
    virtual std::optional<std::size_t> capacity() const { return std::nullopt; }
    /// At most this many live records bound to one principal, when the backend has such a bound
    /// (put() then fails beyond it for that principal; unbound records are not counted).
    virtual std::optional<std::size_t> capacity_per_principal() const { return std::nullopt; }
};

/// The in-process backend: a hash map under one mutex, each record with a mutex of its own that
/// update() holds while `change` runs (a slow update of one handle never holds up another).
/// Expired records become tombstones (handle, principal: no value) for one more lifetime, so that
/// a late caller is told "expired" rather than "unknown"; both are swept in batches on put(),
/// never one by one on the hot path. A handle erased from inside an update of itself stays
/// erased: the update's result is dropped.
class memory_handle_backend final : public handle_backend {
public:
    /// At most `max_handles` live records (std::invalid_argument when 0), and at most
    /// `max_per_principal` bound to any one principal (0: no bound of its own), so that one
    /// client cannot take the whole store.
    explicit memory_handle_backend(std::size_t max_handles = 100000, std::size_t max_per_principal = 10000);
    ~memory_handle_backend() override;
    memory_handle_backend(const memory_handle_backend&) = delete;
    memory_handle_backend& operator=(const memory_handle_backend&) = delete;

    bool put(const std::string& handle, const std::string& principal, json::value value,
             std::chrono::milliseconds lifetime) override;
    handle_lookup get(std::string_view handle, std::string_view principal,
                      std::optional<std::chrono::milliseconds> renew) override;
    handle_state update(std::string_view handle, std::string_view principal,
                        std::optional<std::chrono::milliseconds> renew,
                        const std::function<json::value(const json::value& current)>& change) override;
    bool erase(std::string_view handle, std::string_view principal) override;
    std::size_t size() const override;
    std::optional<std::size_t> capacity() const override;
    std::optional<std::size_t> capacity_per_principal() const override;

    /// For tests and benchmarks: pretend `by` has passed (expiry without sleeping).
    void advance_clock(std::chrono::milliseconds by);

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

} // namespace mcp
