// An MCP server in the test's own process, served over Streamable HTTP on a loopback port: a
// server behind a gateway or a host manager whose handlers the test writes (and can watch),
// reached over a real socket like any remote server.
#pragma once

#include <mcp/host/config.hpp>
#include <mcp/http/server.hpp>
#include <mcp/server/server.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace mcp::test {

class http_backend {
public:
    explicit http_backend(std::string name)
        : mcp_(server_options{.info = {.name = std::move(name), .version = "1.0"}}) {}
    ~http_backend() { stop(); }
    http_backend(const http_backend&) = delete;
    http_backend& operator=(const http_backend&) = delete;

    /// Register tools (and the rest) before start().
    mcp::server& server() noexcept { return mcp_; }
    void start() {
        http_ = std::make_unique<http::server>(mcp_, http::server_options{});
        http_->start();
    }
    void stop() {
        if (http_) http_->stop(std::chrono::milliseconds(0));
    }
    std::string url() const { return http_->url(); }

    /// A host config entry for this server.
    host::server_config entry(std::string name) const {
        host::server_config c;
        c.name = std::move(name);
        c.transport = host::transport_kind::streamable_http;
        c.url = url();
        c.source = "test";
        return c;
    }

private:
    mcp::server mcp_;
    std::unique_ptr<http::server> http_;
};

} // namespace mcp::test
