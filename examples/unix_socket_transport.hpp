// examples/unix_socket_transport.hpp - a custom mcpxx transport over a Unix domain socket.
//
// This is the whole of it: a connected socket is a readable and writable descriptor, and
// fd_stream_transport already knows how to speak newline-delimited JSON-RPC over one. A transport
// over anything else (a serial port, a WebSocket, a message queue) implements the three
// functions of mcp::transport in the same spirit: start(handler) reads frames and hands each to
// handler.on_message(mcp::jsonrpc::incoming_message::parse(frame)); send(message) writes
// message.text in a frame; close() stops and calls handler.on_close once.
#pragma once

#include <mcp/jsonrpc/error.hpp>
#include <mcp/transport/fd_stream.hpp>

#include <cerrno>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace example {

inline sockaddr_un unix_address(const std::string& path) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path)
        throw mcp::error(mcp::error_code::internal_error, "socket path too long: " + path);
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    return addr;
}

inline mcp::transport_ptr over_socket(int fd, const std::string& name) {
    return std::make_shared<mcp::fd_stream_transport>(mcp::fd_stream_transport::options{fd, fd, true, name});
}

/// Client side: connect to a server listening on `path`.
inline mcp::transport_ptr unix_connect(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    auto addr = unix_address(path);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        const std::string why = std::strerror(errno);
        if (fd >= 0) ::close(fd);
        throw mcp::error(mcp::error_code::connection_closed, "cannot connect to " + path + ": " + why);
    }
    return over_socket(fd, "unix:" + path);
}

/// Server side: listen on `path` and return the transport of the first connection.
class unix_listener {
public:
    explicit unix_listener(std::string path) : path_(std::move(path)) {
        ::unlink(path_.c_str());
        fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        auto addr = unix_address(path_);
        if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
            ::listen(fd_, 8) != 0)
            throw mcp::error(mcp::error_code::internal_error,
                             "cannot listen on " + path_ + ": " + std::strerror(errno));
    }
    ~unix_listener() {
        ::close(fd_);
        ::unlink(path_.c_str());
    }
    mcp::transport_ptr accept_one() {
        const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (c < 0)
            throw mcp::error(mcp::error_code::connection_closed,
                             "accept failed: " + std::string(std::strerror(errno)));
        return over_socket(c, "unix:" + path_);
    }

private:
    std::string path_;
    int fd_ = -1;
};

/// Listen on `path`, wait for one connection and return its transport.
inline mcp::transport_ptr unix_accept_one(const std::string& path) {
    return unix_listener(path).accept_one();
}

} // namespace example
