// The HTTP+SSE transport of protocol revision 2024-11-05 (deprecated since 2025-03-26), served for
// old clients when server_options::legacy_sse is set: GET on the SSE path opens a stream whose
// first event, `endpoint`, names the URL to POST messages to (the messages path with the
// session's id in the query); every server message travels on that stream. The stream is the
// session: when it closes, the session ends.
#pragma once

#include "http/http_server.hpp"
#include "http/streamable_host.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace mcp::http::detail {

class legacy_session;

class legacy_sse_endpoint {
public:
    explicit legacy_sse_endpoint(std::shared_ptr<host_state> host);
    ~legacy_sse_endpoint();
    bool handles(std::string_view path) const;
    void handle(core::request&& req, std::shared_ptr<core::response_writer> w, std::string principal);
    void keep_alive();
    void close_all();
    std::size_t sessions() const;
    std::size_t requests_in_flight() const; ///< requests of every session not answered yet

private:
    void open(const core::request& req, const std::shared_ptr<core::response_writer>& w,
              std::string principal);
    void post(core::request&& req, const std::shared_ptr<core::response_writer>& w, std::string principal);
    void forget(const std::string& id);

    std::shared_ptr<host_state> host_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    mutable std::mutex mu_;
    std::map<std::string, std::shared_ptr<legacy_session>, std::less<>> sessions_;
    std::map<std::string, std::size_t, std::less<>> owners_; ///< sessions per owner (session_owner())
};

} // namespace mcp::http::detail
