// http/http_server_impl.hpp - the state of mcp::http::core::server shared by its two parts:
// the acceptor and lifecycle (http_server.cpp) and the connection state machine
// (connection.hpp). Asio inside: included only by http_server.cpp.
#pragma once

#include "http_server.hpp"

#include "connection_budget.hpp"
#include "exchange.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace mcp::http::core {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace detail {
class connection;
// Why a connection is answered 503 instead of served.
enum class refusal : std::uint8_t { none, total, per_address };
} // namespace detail

struct server::impl {
    impl(server_options o, handler hd) : opts(std::move(o)), h(std::move(hd)) {
        if (opts.threads == 0) opts.threads = 1;
    }

    server_options opts;
    handler h;
    const std::shared_ptr<detail::server_shared> shared = std::make_shared<detail::server_shared>();

    std::mutex life_mu; // start() / stop()
    enum class life { idle, running, stopped } state = life::idle;

    std::unique_ptr<asio::io_context> ioc;
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
    std::unique_ptr<tcp::acceptor> acceptor;
    std::unique_ptr<asio::steady_timer> accept_retry;
    std::vector<std::thread> threads;
    std::atomic<unsigned short> port{0};

    // Every connection from its accept until it is closed (close_now), strongly: a connection
    // whose exchange is waiting for the application and that has no I/O in progress is kept
    // alive by nothing else. `live` counts them (answered 503 or not), `open` those counted
    // against max_connections, `by_address` the served ones per client address.
    std::mutex mu;
    std::condition_variable cv;
    std::list<std::shared_ptr<detail::connection>> conns;
    std::size_t live = 0;
    std::size_t rejecting = 0;
    std::map<asio::ip::address, std::size_t> by_address;
    detail::connection_budget budget; // set by start()
    detail::refusal_tally refusals;   // since the last log line about them (under mu)

    // A descriptor held in reserve: when accept() fails with EMFILE it is closed for a moment so
    // that waiting clients can be accepted, told 503 and closed, instead of waiting unanswered.
    int spare_fd = -1;
    std::size_t shed = 0;    // clients refused that way since the last log line
    bool fd_starved = false; // in an EMFILE episode (logged when it begins and when it ends)
    bool stopping_locked = false;
    std::atomic<std::size_t> open{0};
    std::atomic<bool> stopping{false};

    asio::any_io_executor connection_executor() {
        if (opts.threads > 1) return asio::make_strand(*ioc);
        return ioc->get_executor();
    }

    void do_accept();
    void on_accept(const error_code& ec, tcp::socket socket);
    void on_accept_error(const error_code& ec);
    void shed_waiting_clients();
    void log(const std::string& line);
    void closed(std::list<std::shared_ptr<detail::connection>>::iterator it, detail::refusal why,
                const asio::ip::address& address);
    void run_thread();
};

} // namespace mcp::http::core
