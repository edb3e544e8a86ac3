// mcp/server/handle_store.hpp - state for stateful tools without sessions.
//
// The 2026-07-28 tools page advises servers that need state across tool calls (a shopping
// basket, a database transaction, a browser tab) to hand the model an explicit handle instead of
// keeping the state in a session: one tool creates the thing and returns its handle, the others
// take the handle as an argument. handle_store<T> is that utility:
//
//   mcp::handle_store<basket> baskets({.lifetime = std::chrono::minutes(30), .noun = "basket",
//                                      .recovery = "Call create_basket to start a new basket."});
//   // in create_basket:
//   std::string id = baskets.create(ctx, basket{});   // "basket_3f9c..." bound to the caller
//   // in add_item:
//   baskets.update(ctx, args.basket, [&](basket& b) { b.items.push_back(item); });
//
// Who may use a handle. Passing the handler's context binds the handle to the caller's
// authenticated principal (context::principal(): the user an HTTP authentication hook accepted);
// another principal gets the same answer as for an unknown handle, so handles of other users
// cannot be probed. Where there is no principal (stdio, or HTTP without authentication, where
// every caller is the same anonymous party) the handle is usable by whoever holds it. A handle
// for anyone even when there is a principal is asked for by name: create(mcp::unbound, value).
// Code outside a handler passes the principal itself (create(value, principal) refuses an empty
// one: an empty principal read from the wrong place would silently make a handle for anyone).
//
// Handles are opaque: a prefix plus 128 bits from the OS CSPRNG in hex, so they cannot be guessed
// or enumerated. Each lives `lifetime` after its last use (or after creation: `sliding = false`).
//
// Where the values live. T is converted to JSON (mcp::type_codec: a struct described with
// MCP_DESCRIBE, or any type with a codec) and kept in a handle_backend (mcp/server/
// handle_backend.hpp): by default a bounded memory_handle_backend of this process; give the
// stores of several replicas one shared backend and a handle created on one replica works on all.
// get() converts back (a stored value that no longer fits T throws mcp::conversion_error).
//
// A bad handle throws mcp::handle_error. Thrown from a tool handler, it becomes a tool result
// with isError: true whose text says what happened and how to recover (the `recovery` option),
// which is what a model needs to get back on track; handle_error::why tells code which case it
// was.
//
// Thread safety: every member may be called concurrently. update() is atomic per handle: two
// updates of one handle are serialised (with the memory backend, its function runs under the
// handle's lock, exactly once) while updates of different handles run in parallel; an update
// whose function throws changes nothing; get() returns a copy of a committed value.
#pragma once

#include <mcp/json/type_codec.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/handle_backend.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace mcp {

struct handle_store_options {
    /// How long a handle stays valid after its last use (sliding) or its creation.
    std::chrono::milliseconds lifetime = std::chrono::hours(1);
    bool sliding = true;
    /// For the default backend (a memory_handle_backend the store creates): at most this many
    /// live handles; create() beyond it (after dropping expired ones) throws handle_error with
    /// reason::capacity. A backend given to the store has bounds of its own.
    std::size_t max_handles = 100000;
    /// For the default backend: at most this many live handles bound to one principal (0: no
    /// bound of its own); create() beyond it throws handle_error with reason::capacity. Unbound
    /// handles (mcp::unbound) count against max_handles only.
    std::size_t max_handles_per_principal = 10000;
    /// What a handle names, used in messages ("basket") and, with "_", as the handle's prefix.
    std::string noun = "handle";
    /// Appended to every error message: how the model can recover.
    std::string recovery;
};

class handle_error : public std::runtime_error {
public:
    enum class reason {
        unknown,  ///< never issued, already erased, or issued to another principal
        expired,  ///< issued, but its lifetime has passed
        capacity, ///< create(): the backend is full
    };
    handle_error(reason r, const std::string& message) : std::runtime_error(message), reason_(r) {}
    reason why() const noexcept { return reason_; }

private:
    reason reason_;
};

/// Tag of create(mcp::unbound, value): a handle usable by anyone who holds it.
struct unbound_t {
    explicit constexpr unbound_t() = default;
};
inline constexpr unbound_t unbound{};

namespace detail {

/// The part of handle_store<T> that does not depend on T (src/server/handle_store.cpp).
class handle_store_base {
public:
    handle_store_base(std::shared_ptr<handle_backend> backend, handle_store_options options);
    explicit handle_store_base(handle_store_options options);

    std::string create_json(json::value value, const std::string& principal);
    json::value get_json(std::string_view handle, std::string_view principal);
    void update_json(std::string_view handle, std::string_view principal,
                     const std::function<json::value(const json::value&)>& change);
    bool erase(std::string_view handle, std::string_view principal);
    std::size_t size() const;
    const handle_store_options& options() const noexcept { return options_; }
    const std::shared_ptr<handle_backend>& backend() const noexcept { return backend_; }
    void advance_clock(std::chrono::milliseconds by);

protected:
    static const std::string& principal_of(const context& ctx) { return ctx.principal(); }
    static std::string required_principal(std::string_view principal);

private:
    [[noreturn]] void fail(handle_state state, std::string_view handle) const;
    std::optional<std::chrono::milliseconds> renewal() const noexcept;

    handle_store_options options_;
    std::shared_ptr<handle_backend> backend_;
    memory_handle_backend* own_ = nullptr; ///< the default backend, when the store made it
};

} // namespace detail

template <class T> class handle_store : private detail::handle_store_base {
    static_assert(json_convertible<T>,
                  "mcp::handle_store<T>: T must convert to and from JSON (describe it with MCP_DESCRIBE, or "
                  "specialise mcp::type_codec<T>): values are kept as JSON so that replicas can share them");

public:
    /// A store over a memory_handle_backend of its own (`options.max_handles` bounds it).
    explicit handle_store(handle_store_options options = {}) : handle_store_base(std::move(options)) {}
    /// A store over `backend`, which other stores (replicas) may share.
    handle_store(std::shared_ptr<handle_backend> backend, handle_store_options options = {})
        : handle_store_base(std::move(backend), std::move(options)) {}

    // --- create ---
    /// Store `value` and return its new handle, bound to the caller's principal (for anyone
    /// who holds it when the caller has none). Throws handle_error (capacity).
    std::string create(const context& ctx, T value) {
        return create_json(mcp::to_value(value), principal_of(ctx));
    }
    /// A handle for anyone who holds it, whoever the caller is.
    std::string create(unbound_t, T value) { return create_json(mcp::to_value(value), {}); }
    /// A handle bound to `principal`, which must not be empty (std::invalid_argument).
    std::string create(T value, std::string_view principal) {
        return create_json(mcp::to_value(value), required_principal(principal));
    }

    // --- use: throw handle_error (unknown, expired) for a bad handle ---
    /// A copy of the value behind `handle`, for the caller of `ctx`.
    T get(const context& ctx, std::string_view handle) { return get(handle, principal_of(ctx)); }
    /// A copy of the value behind `handle`, for `principal` ("": no principal).
    T get(std::string_view handle, std::string_view principal = {}) {
        return mcp::from_value<T>(get_json(handle, principal));
    }

    /// Run fn(T&) on the value behind `handle`, store the result and return what fn returns,
    /// atomically (see the top of this file). If fn throws, nothing changes.
    template <class F>
    auto update(const context& ctx, std::string_view handle, F&& fn) -> std::invoke_result_t<F&, T&> {
        return update(handle, principal_of(ctx), std::forward<F>(fn));
    }
    template <class F>
    auto update(std::string_view handle, std::string_view principal, F&& fn) -> std::invoke_result_t<F&, T&> {
        using R = std::invoke_result_t<F&, T&>;
        if constexpr (std::is_void_v<R>) {
            update_json(handle, principal, [&](const json::value& current) {
                T v = mcp::from_value<T>(current);
                fn(v);
                return mcp::to_value(v);
            });
        } else {
            std::optional<R> out;
            update_json(handle, principal, [&](const json::value& current) {
                T v = mcp::from_value<T>(current);
                out.emplace(fn(v)); // a backend that runs this again keeps the last result
                return mcp::to_value(v);
            });
            return std::move(*out);
        }
    }

    /// Forget `handle` (e.g. after checkout). False if it was unknown, expired or foreign.
    bool erase(const context& ctx, std::string_view handle) { return erase(handle, principal_of(ctx)); }
    bool erase(std::string_view handle, std::string_view principal = {}) {
        return handle_store_base::erase(handle, principal);
    }

    using handle_store_base::options;
    /// Live handles in the backend (expired ones may be counted until the next sweep).
    using handle_store_base::size;
    /// The backend, to share with the stores of other replicas.
    using handle_store_base::backend;
    /// For tests: let `by` pass for expiry purposes. Only for the default backend (else
    /// std::logic_error: advance the clock of the backend you gave).
    using handle_store_base::advance_clock;
};

} // namespace mcp
