// server/handle_store.cpp - what mcp::handle_store<T> does apart from converting T: handles,
// options, the backend, and the messages a model reads when a handle is bad.
#include <mcp/server/handle_store.hpp>

#include "crypto/crypto.hpp"

#include <stdexcept>

namespace mcp::detail {

namespace {

/// A handle as it may appear in a message: caller-supplied text, so bounded and printable.
std::string quoted(std::string_view handle) {
    std::string out = "\"";
    for (char c : handle.substr(0, 80)) out.push_back(static_cast<unsigned char>(c) < 0x20 ? '?' : c);
    if (handle.size() > 80) out += "...";
    return out + "\"";
}

std::string describe(std::chrono::milliseconds d) {
    using namespace std::chrono;
    if (d >= hours(1) && d % hours(1) == milliseconds(0))
        return std::to_string(duration_cast<hours>(d).count()) + " h";
    if (d >= minutes(1) && d % minutes(1) == milliseconds(0))
        return std::to_string(duration_cast<minutes>(d).count()) + " min";
    if (d >= seconds(1) && d % seconds(1) == milliseconds(0))
        return std::to_string(duration_cast<seconds>(d).count()) + " s";
    if (d >= seconds(1)) { // one decimal, never rounded down to less than it is
        const auto tenths = (d.count() + 99) / 100;
        return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
    }
    return std::to_string(d.count()) + " ms";
}

handle_store_options checked(handle_store_options options) {
    if (options.lifetime <= std::chrono::milliseconds(0))
        throw std::invalid_argument("mcp::handle_store: lifetime must be positive");
    if (options.max_handles == 0)
        throw std::invalid_argument("mcp::handle_store: max_handles must be positive");
    if (options.noun.empty()) options.noun = "handle";
    return options;
}

} // namespace

handle_store_base::handle_store_base(std::shared_ptr<handle_backend> backend, handle_store_options options)
    : options_(checked(std::move(options))), backend_(std::move(backend)) {
    if (!backend_) throw std::invalid_argument("mcp::handle_store: the backend is null");
}

handle_store_base::handle_store_base(handle_store_options options) : options_(checked(std::move(options))) {
    auto own =
        std::make_shared<memory_handle_backend>(options_.max_handles, options_.max_handles_per_principal);
    own_ = own.get();
    backend_ = std::move(own);
}

std::string handle_store_base::required_principal(std::string_view principal) {
    if (principal.empty())
        throw std::invalid_argument("mcp::handle_store::create: the principal is empty; pass the handler's "
                                    "context to bind the handle "
                                    "to its caller, or mcp::unbound for a handle anyone holding it may use");
    return std::string(principal);
}

std::optional<std::chrono::milliseconds> handle_store_base::renewal() const noexcept {
    if (options_.sliding) return options_.lifetime;
    return std::nullopt;
}

std::string handle_store_base::create_json(json::value value, const std::string& principal) {
    // 128 random bits: a collision with a handle in use is not a concern.
    std::string handle = options_.noun + "_" + random_hex_id();
    if (!backend_->put(handle, principal, std::move(value), options_.lifetime)) {
        const auto bound = backend_->capacity();
        const auto each = principal.empty() ? std::nullopt : backend_->capacity_per_principal();
        std::string limits;
        if (bound) limits = "at most " + std::to_string(*bound);
        if (each) limits += (limits.empty() ? "at most " : ", ") + std::to_string(*each) + " per caller";
        throw handle_error(handle_error::reason::capacity,
                           "Too many open " + options_.noun + "s" +
                               (limits.empty() ? std::string() : " (" + limits + ")") +
                               "; close one or try again later.");
    }
    return handle;
}

json::value handle_store_base::get_json(std::string_view handle, std::string_view principal) {
    auto found = backend_->get(handle, principal, renewal());
    if (found.state != handle_state::live) fail(found.state, handle);
    return std::move(found.value);
}

void handle_store_base::update_json(std::string_view handle, std::string_view principal,
                                    const std::function<json::value(const json::value&)>& change) {
    const auto state = backend_->update(handle, principal, renewal(), change);
    if (state != handle_state::live) fail(state, handle);
}

bool handle_store_base::erase(std::string_view handle, std::string_view principal) {
    return backend_->erase(handle, principal);
}

std::size_t handle_store_base::size() const {
    return backend_->size();
}

void handle_store_base::advance_clock(std::chrono::milliseconds by) {
    if (!own_)
        throw std::logic_error("mcp::handle_store::advance_clock: only for the store's own memory backend; "
                               "advance the clock of the backend you gave it");
    own_->advance_clock(by);
}

void handle_store_base::fail(handle_state state, std::string_view handle) const {
    auto with_recovery = [&](std::string message) {
        if (!options_.recovery.empty()) message += " " + options_.recovery;
        return message;
    };
    if (state == handle_state::expired)
        throw handle_error(
            handle_error::reason::expired,
            with_recovery("The " + options_.noun + " " + quoted(handle) + " has expired (a " + options_.noun +
                          " lasts " + describe(options_.lifetime) +
                          (options_.sliding ? " after its last use)." : " after it is created).")));
    throw handle_error(handle_error::reason::unknown,
                       with_recovery("Unknown " + options_.noun + " " + quoted(handle) +
                                     ": it was never issued, has been closed, or belongs to someone else."));
}

} // namespace mcp::detail
