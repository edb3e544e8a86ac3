// mcp/server/handle_store.hpp - state for stateful tools without sessions.
//
// The 2026-07-28 tools page advises servers that need state across tool calls (a shopping
// basket, a database transaction, a browser tab) to hand the model an explicit handle instead of
// keeping the state in a session: one tool creates the thing and returns its handle, the others
// take the handle as an argument. handle_store<T> is that utility:
//
//   mcp::handle_store<basket> baskets({.lifetime = std::chrono::minutes(30), .noun = "basket",
//                                      .recovery = "Call create_basket to start a new basket."});
//   std::string id = baskets.create(basket{}, principal);  // "basket_3f9c..." (128 random bits)
//   baskets.update(args.basket, principal, [&](basket& b) { b.items.push_back(item); });
//
// `principal` is who is calling: the authenticated user over HTTP, empty over stdio.
//
// Handles are opaque: a prefix plus 128 bits from the OS CSPRNG in hex, so they cannot be guessed
// or enumerated. Each lives `lifetime` after its last use (or after creation: `sliding = false`).
// A handle is bound to the principal that created it when there is one (an authenticated user
// over HTTP); another principal gets the same answer as for an unknown handle, so handles of
// other users cannot be probed. A handle created without a principal is usable by anyone who
// holds it.
//
// A bad handle throws mcp::handle_error. Thrown from a tool handler, it becomes a tool result
// with isError: true whose text says what happened and how to recover (the `recovery` option),
// which is what a model needs to get back on track; handle_error::reason tells code which case
// it was.
//
// Thread safety: every member may be called concurrently. update() runs its function under the
// entry's own lock, so two calls on one handle are serialised while calls on different handles
// run in parallel; get() returns a snapshot copy.
#pragma once

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
    /// At most this many live handles; create() beyond it (after dropping expired ones) throws
    /// handle_error with reason::capacity.
    std::size_t max_handles = 100000;
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
        capacity, ///< create(): max_handles live handles already
    };
    handle_error(reason r, const std::string& message) : std::runtime_error(message), reason_(r) {}
    reason why() const noexcept { return reason_; }

private:
    reason reason_;
};

namespace detail {

/// The type-erased store behind handle_store<T> (src/server/handle_store.cpp).
class handle_table {
public:
    explicit handle_table(handle_store_options options);
    ~handle_table();
    handle_table(const handle_table&) = delete;
    handle_table& operator=(const handle_table&) = delete;

    std::string create(std::shared_ptr<void> value, std::string_view principal);
    /// Runs fn(value) under the entry's lock; throws handle_error for a bad handle.
    void visit(std::string_view handle, std::string_view principal, const std::function<void(void*)>& fn);
    bool erase(std::string_view handle, std::string_view principal);
    std::size_t size() const;
    const handle_store_options& options() const noexcept;
    /// For tests and benchmarks: pretend `by` has passed (expiry without sleeping).
    void advance_clock(std::chrono::milliseconds by);

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

} // namespace detail

template <class T> class handle_store {
    static_assert(std::is_copy_constructible_v<T>, "handle_store<T>::get returns copies of T");

public:
    explicit handle_store(handle_store_options options = {}) : table_(std::move(options)) {}

    /// Store `value` and return its new handle, bound to `principal` if it is not empty.
    std::string create(T value, std::string_view principal = {}) {
        return table_.create(std::make_shared<T>(std::move(value)), principal);
    }

    /// A copy of the value behind `handle`. Throws handle_error (unknown, expired).
    T get(std::string_view handle, std::string_view principal = {}) {
        T copy{};
        update(handle, principal, [&](T& v) { copy = v; });
        return copy;
    }

    /// Run fn(T&) under the handle's lock and return what it returns. Throws handle_error.
    template <class F>
    auto update(std::string_view handle, std::string_view principal, F&& fn) -> std::invoke_result_t<F&, T&> {
        using R = std::invoke_result_t<F&, T&>;
        if constexpr (std::is_void_v<R>) {
            table_.visit(handle, principal, [&](void* p) { fn(*static_cast<T*>(p)); });
        } else {
            std::optional<R> out;
            table_.visit(handle, principal, [&](void* p) { out.emplace(fn(*static_cast<T*>(p))); });
            return std::move(*out);
        }
    }

    /// Forget `handle` (e.g. after checkout). False if it was unknown, expired or foreign.
    bool erase(std::string_view handle, std::string_view principal = {}) {
        return table_.erase(handle, principal);
    }

    /// Live handles (expired ones may be counted until the next sweep).
    std::size_t size() const { return table_.size(); }
    const handle_store_options& options() const noexcept { return table_.options(); }
    /// For tests: let `by` pass for expiry purposes.
    void advance_clock(std::chrono::milliseconds by) { table_.advance_clock(by); }

private:
    detail::handle_table table_;
};

} // namespace mcp
