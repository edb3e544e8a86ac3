// http/http_server.cpp - the Asio side of mcp::http::core::server: acceptor, start, graceful
// stop. The connection state machine is in connection.hpp, the shared state in
// http_server_impl.hpp; this is their one translation unit.
#include "http_server.hpp"

#include "connection.hpp"
#include "http_server_impl.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace mcp::http::core {

using detail::connection;
using detail::refusal;

namespace {

// The server whose I/O thread this is (stop() refuses to run there: it would join itself).
thread_local const void* tl_io_server = nullptr;

// Delay before accepting again after an accept error such as EMFILE (no busy loop).
constexpr std::chrono::milliseconds accept_retry_delay{50};
// Connections refused at once with the spare descriptor when accept() meets EMFILE.
constexpr int max_shed_per_retry = 64;

std::system_error listen_error(const error_code& ec, const std::string& where) {
    std::error_code sec = ec.category() == boost::system::system_category()
                              ? std::error_code(ec.value(), std::system_category())
                              : std::error_code(ec.value(), std::generic_category());
    return std::system_error(sec, "mcp::http::core::server: cannot listen on " + where);
}

// The client's address, IPv4-mapped IPv6 addresses as IPv4 (one client, one key).
asio::ip::address client_address(const tcp::socket& s) {
    error_code ec;
    auto addr = s.remote_endpoint(ec).address();
    if (ec) return {};
    if (addr.is_v6() && addr.to_v6().is_v4_mapped())
        addr = asio::ip::make_address_v4(asio::ip::v4_mapped, addr.to_v6());
    return addr;
}

// The key of the per-address cap: an IPv6 client usually holds a whole /64, so it is capped by
// its /64 prefix (or it could open max_connections_per_address from each of 2^64 addresses).
asio::ip::address address_bucket(const asio::ip::address& a) {
    if (!a.is_v6()) return a;
    auto bytes = a.to_v6().to_bytes();
    std::fill(bytes.begin() + 8, bytes.end(), 0);
    return asio::ip::address_v6(bytes);
}

} // namespace

// ---- server::impl ----

void server::impl::run_thread() {
    tl_io_server = this;
    for (;;) {
        try {
            ioc->run();
            return;
        } catch (...) {
            // Handler exceptions are caught where user code is called; anything else (such as
            // bad_alloc in a completion) must not end the thread while others still need it.
        }
    }
}

void server::impl::do_accept() {
    acceptor->async_accept(connection_executor(),
                           [this](const error_code& ec, tcp::socket s) { on_accept(ec, std::move(s)); });
}

void server::impl::on_accept(const error_code& ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor->is_open()) return;
    if (ec) {
        on_accept_error(ec);
        return;
    }
    if (fd_starved) {
        fd_starved = false;
        log("accepting again: descriptors are available (" + std::to_string(shed) +
            " clients were refused 503 meanwhile)");
        shed = 0;
        // Shedding gives the spare back and takes it again; if another thread took the freed
        // descriptor meanwhile the reserve is empty: refill it now that there are some.
        if (spare_fd < 0) spare_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    const auto address = client_address(socket);
    std::shared_ptr<connection> c;
    std::string refusal_line;
    {
        std::lock_guard lk(mu);
        if (stopping_locked) {
            error_code ignored;
            socket.close(ignored);
            return;
        }
        auto why = refusal::none;
        if (open.load(std::memory_order_relaxed) >= budget.max_connections)
            why = refusal::total;
        else if (auto it = by_address.find(address_bucket(address));
                 it != by_address.end() && it->second >= budget.per_address)
            why = refusal::per_address;
        if (why == refusal::none || rejecting < budget.max_rejecting) {
            c = std::make_shared<connection>(*this, std::move(socket), why, address);
            conns.push_front(c);
            c->registry_it = conns.begin();
            ++live;
            if (why == refusal::none) {
                open.fetch_add(1, std::memory_order_relaxed);
                ++by_address[address_bucket(address)];
            } else {
                ++rejecting;
            }
        }
        if (why != refusal::none)
            refusal_line = refusals.note(why == refusal::per_address, c != nullptr, budget);
    }
    if (!refusal_line.empty()) log(refusal_line);
    if (c) {
        auto ex = c->executor();
        asio::dispatch(ex, [c = std::move(c)] { c->start(); });
    } else {
        error_code ignored;
        socket.close(ignored);
    }
    do_accept();
}

void server::impl::closed(std::list<std::shared_ptr<connection>>::iterator it, refusal why,
                          const asio::ip::address& address) {
    std::lock_guard lk(mu);
    conns.erase(it);
    --live;
    if (why == refusal::none) {
        open.fetch_sub(1, std::memory_order_relaxed);
        if (auto a = by_address.find(address_bucket(address)); a != by_address.end() && --a->second == 0)
            by_address.erase(a);
    } else {
        --rejecting;
    }
    if (live == 0) cv.notify_all();
}

void server::impl::log(const std::string& line) {
    if (!opts.log) return;
    try {
        opts.log(line);
    } catch (...) {
        // A throwing log must not take the I/O thread down.
    }
}

void server::impl::on_accept_error(const error_code& ec) {
    if (ec == asio::error::no_descriptors || ec.value() == ENFILE || ec.value() == EMFILE) {
        if (!fd_starved) {
            fd_starved = true;
            log("accept failed: " + ec.message() + " (descriptor limit " + std::to_string(budget.fd_limit) +
                "): new clients are refused 503 until descriptors are free again");
        }
        shed_waiting_clients();
    }
    // Try again a little later rather than spin.
    accept_retry->expires_after(accept_retry_delay);
    accept_retry->async_wait([this](const error_code& e) {
        if (!e && acceptor->is_open()) do_accept();
    });
}

// Out of descriptors: give the spare one back for a moment, and with it accept each waiting
// client, tell it 503 and close it (a refusal it can act on, instead of a connection that hangs
// in the backlog until it times out).
void server::impl::shed_waiting_clients() {
    if (spare_fd < 0) return;
    ::close(spare_fd);
    spare_fd = -1;
    static const std::string refused =
        detail::error_response(503, "the server is out of file descriptors; try again later", 1);
    for (int i = 0; i < max_shed_per_retry; ++i) {
        pollfd waiting{acceptor->native_handle(), POLLIN, 0};
        if (::poll(&waiting, 1, 0) != 1) break; // nobody waits (and accept4 must not block)
        const int fd = ::accept4(acceptor->native_handle(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) break;
        // Small enough for any socket buffer: one non-blocking write, then close.
        [[maybe_unused]] const auto n = ::send(fd, refused.data(), refused.size(), MSG_NOSIGNAL);
        ::shutdown(fd, SHUT_WR);
        // Closing a socket with unread input sends RST, which may destroy the 503 before the
        // client reads it: read what its request has delivered so far (without waiting).
        char sink[4096];
        for (int reads = 0; reads < 16 && ::recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0; ++reads) {
        }
        ::close(fd);
        ++shed;
    }
    spare_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

// ---- server ----

server::server(server_options options, handler h)
    : impl_(std::make_unique<impl>(std::move(options), std::move(h))) {}

server::~server() {
    stop(std::chrono::milliseconds(0));
}

void server::start() {
    auto& m = *impl_;
    std::lock_guard life_lock(m.life_mu);
    if (m.state != impl::life::idle) throw std::logic_error("mcp::http::core::server::start: called twice");

    error_code ec;
    const auto addr = asio::ip::make_address(m.opts.address, ec);
    const std::string where = (addr.is_v6() && !ec ? "[" + m.opts.address + "]" : m.opts.address) + ":" +
                              std::to_string(m.opts.port);
    if (ec) throw listen_error(ec, where);

    m.ioc = std::make_unique<asio::io_context>(static_cast<int>(m.opts.threads));
    const tcp::endpoint ep(addr, m.opts.port);
    asio::any_io_executor aex = m.opts.threads > 1 ? asio::any_io_executor(asio::make_strand(*m.ioc))
                                                   : asio::any_io_executor(m.ioc->get_executor());
    m.acceptor = std::make_unique<tcp::acceptor>(aex);
    m.acceptor->open(ep.protocol(), ec);
    if (!ec) m.acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) m.acceptor->bind(ep, ec);
    if (!ec) m.acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        m.acceptor.reset();
        m.ioc.reset();
        throw listen_error(ec, where);
    }
    m.port.store(m.acceptor->local_endpoint().port());
    m.budget = detail::plan_connections(m.opts.max_connections, m.opts.max_connections_per_address,
                                        m.opts.raise_descriptor_limit);
    if (!m.budget.note.empty()) m.log("mcp::http::core::server on " + where + ": " + m.budget.note);
    if (m.spare_fd < 0) m.spare_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    m.accept_retry = std::make_unique<asio::steady_timer>(aex);
    m.work.emplace(m.ioc->get_executor());
    m.do_accept(); // no I/O thread runs yet: safe from here
    m.threads.reserve(m.opts.threads);
    for (std::size_t i = 0; i < m.opts.threads; ++i) m.threads.emplace_back([&m] { m.run_thread(); });
    m.state = impl::life::running;
}

unsigned short server::port() const {
    return impl_->port.load();
}

std::size_t server::open_connections() const {
    return impl_->open.load(std::memory_order_relaxed);
}

std::size_t server::open_streams() const {
    return impl_->shared->open_streams.load(std::memory_order_relaxed);
}

void server::stop(std::chrono::milliseconds grace) {
    auto& m = *impl_;
    if (tl_io_server == &m)
        throw std::logic_error(
            "mcp::http::core::server::stop: called from one of the server's own I/O threads "
            "(a handler or an on_close callback); it would wait for itself");
    std::lock_guard life_lock(m.life_mu);
    if (m.state != impl::life::running) return;
    const auto deadline = std::chrono::steady_clock::now() + grace;

    // 1. No new connections; idle ones close, busy ones finish their request without keep-alive.
    std::vector<std::shared_ptr<connection>> snapshot;
    std::string refusal_line;
    {
        std::lock_guard lk(m.mu);
        refusal_line = m.refusals.take_line(m.budget); // the last second's, not logged yet
        m.stopping_locked = true;
        m.stopping.store(true);
        snapshot.assign(m.conns.begin(), m.conns.end());
    }
    if (!refusal_line.empty()) m.log(refusal_line);
    asio::post(m.acceptor->get_executor(), [&m] {
        error_code ignored;
        m.acceptor->close(ignored);
        m.accept_retry->cancel();
    });
    for (auto& c : snapshot) {
        auto ex = c->executor();
        asio::post(ex, [c = std::move(c)] { c->begin_stop(); });
    }
    snapshot.clear();

    // 2. Wait for them to finish, up to the grace period; then close the rest.
    {
        std::unique_lock lk(m.mu);
        if (!m.cv.wait_until(lk, deadline, [&] { return m.live == 0; })) {
            snapshot.assign(m.conns.begin(), m.conns.end());
        }
    }
    for (auto& c : snapshot) {
        auto ex = c->executor();
        asio::post(ex, [c = std::move(c)] { c->close_now(); });
    }
    snapshot.clear();
    {
        std::unique_lock lk(m.mu);
        m.cv.wait(lk, [&] { return m.live == 0; });
    }

    // 3. From here on no writer the application still holds can reach a connection or post to
    //    the io_context; then the threads end and everything Asio is destroyed.
    {
        std::unique_lock guard(m.shared->post_mu);
        m.shared->accepting_posts = false;
    }
    m.work.reset();
    m.ioc->stop();
    for (auto& t : m.threads) t.join();
    m.threads.clear();
    {
        std::lock_guard lk(m.mu);
        m.conns.clear(); // empty (every connection closed); Asio objects go before their io_context
    }
    m.accept_retry.reset();
    m.acceptor.reset();
    if (m.spare_fd >= 0) ::close(m.spare_fd);
    m.spare_fd = -1;
    m.ioc.reset(); // destroys handlers that never ran, and with them the last connections
    m.state = impl::life::stopped;
}

} // namespace mcp::http::core
