// A raw HTTP/1.1 client over POSIX sockets for tests of the HTTP layers: requests are written as
// bytes and responses read back as the server framed them (Content-Length, chunked, or until the
// connection closes), so what is tested is what travels on the wire.
#pragma once

#include "support/eventually.hpp"

#include "http/core/request.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

namespace mcp::test {

using namespace std::chrono_literals;
namespace core = mcp::http::core;

inline constexpr auto io_timeout = 5s; // a test that waits this long has failed

// ---- a raw HTTP/1.1 client ----

struct response {
    std::string version;
    int status = 0;
    std::string reason;
    core::header_list headers;
    std::string body;
    bool chunked = false;
    std::vector<std::string> chunks;

    std::optional<std::string> header(std::string_view name) const {
        for (const auto& [n, v] : headers)
            if (core::iequals(n, name)) return v;
        return std::nullopt;
    }
};

class raw_client {
public:
    /// Connects to 127.0.0.1:`port`, from `from` when given (another address of 127.0.0.0/8,
    /// which is all loopback: a second client address for per-address limits).
    explicit raw_client(unsigned short port, int rcvbuf = 0, const char* from = nullptr) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "socket");
        if (rcvbuf > 0) ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
        if (from) {
            sockaddr_in local{};
            local.sin_family = AF_INET;
            ::inet_pton(AF_INET, from, &local.sin_addr);
            if (::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
                const int e = errno;
                ::close(fd_);
                throw std::system_error(e, std::generic_category(), "bind");
            }
        }
        int one = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
            const int e = errno;
            ::close(fd_);
            fd_ = -1;
            throw std::system_error(e, std::generic_category(), "connect");
        }
    }
    ~raw_client() { close(); }
    raw_client(const raw_client&) = delete;
    raw_client& operator=(const raw_client&) = delete;

    void close() {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

    void shutdown_write() { ::shutdown(fd_, SHUT_WR); }

    bool send(std::string_view data) {
        while (!data.empty()) {
            ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            data.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }

    std::optional<std::string> read_line() {
        for (;;) {
            auto pos = buf_.find("\r\n");
            if (pos != std::string::npos) {
                std::string line = buf_.substr(0, pos);
                buf_.erase(0, pos + 2);
                return line;
            }
            if (!fill()) return std::nullopt;
        }
    }

    bool read_exact(std::string& out, std::size_t n) {
        while (buf_.size() < n)
            if (!fill()) return false;
        out.append(buf_, 0, n);
        buf_.erase(0, n);
        return true;
    }

    // Status line and fields.
    std::optional<response> read_head() {
        response r;
        auto line = read_line();
        if (!line) return std::nullopt;
        auto sp1 = line->find(' ');
        if (sp1 == std::string::npos) return std::nullopt;
        r.version = line->substr(0, sp1);
        r.status = std::atoi(line->c_str() + sp1 + 1);
        auto sp2 = line->find(' ', sp1 + 1);
        if (sp2 != std::string::npos) r.reason = line->substr(sp2 + 1);
        for (;;) {
            auto f = read_line();
            if (!f) return std::nullopt;
            if (f->empty()) break;
            auto colon = f->find(':');
            if (colon == std::string::npos) return std::nullopt;
            std::string value = f->substr(colon + 1);
            while (!value.empty() && value.front() == ' ') value.erase(0, 1);
            r.headers.emplace_back(f->substr(0, colon), value);
        }
        auto te = r.header("Transfer-Encoding");
        r.chunked = te && core::iequals(*te, "chunked");
        return r;
    }

    // The data of the next chunk; "" for the last chunk (whose trailer section is consumed).
    std::optional<std::string> read_chunk() {
        auto line = read_line();
        if (!line) return std::nullopt;
        std::size_t size = std::stoul(*line, nullptr, 16);
        std::string data;
        if (size == 0) {
            for (;;) {
                auto t = read_line();
                if (!t) return std::nullopt;
                if (t->empty()) return data;
            }
        }
        if (!read_exact(data, size)) return std::nullopt;
        auto crlf = read_line();
        if (!crlf || !crlf->empty()) return std::nullopt;
        return data;
    }

    // A whole response, framed as the server framed it.
    std::optional<response> read_response(bool head_request = false) {
        auto r = read_head();
        if (!r) return r;
        if (head_request || r->status < 200 || r->status == 204 || r->status == 304) return r;
        if (r->chunked) {
            for (;;) {
                auto c = read_chunk();
                if (!c) return std::nullopt;
                if (c->empty()) break;
                r->chunks.push_back(*c);
                r->body += *c;
            }
        } else if (auto cl = r->header("Content-Length")) {
            if (!read_exact(r->body, std::stoul(*cl))) return std::nullopt;
        } else {
            r->body = read_until_eof();
        }
        return r;
    }

    // True when the server closes the connection (data before the end is discarded).
    bool wait_eof() {
        while (fill()) buf_.clear();
        return eof_;
    }

    std::string read_until_eof() {
        while (fill()) {
        }
        std::string r = std::move(buf_);
        buf_.clear();
        return r;
    }

    // True if nothing at all arrives within `d` (the connection stays open and silent).
    bool silent_for(std::chrono::milliseconds d) {
        pollfd p{fd_, POLLIN, 0};
        return ::poll(&p, 1, static_cast<int>(d.count())) == 0;
    }

    const std::string& buffered() const { return buf_; }

private:
    // Read more; false on end of stream, error or timeout (eof_ tells which).
    bool fill() {
        pollfd p{fd_, POLLIN, 0};
        int rc = ::poll(&p, 1, static_cast<int>(std::chrono::milliseconds(io_timeout).count()));
        if (rc <= 0) return false; // timeout
        char tmp[65536];
        ssize_t n = ::recv(fd_, tmp, sizeof tmp, 0);
        if (n <= 0) {
            eof_ = true; // end of stream or reset: the server closed
            return false;
        }
        buf_.append(tmp, static_cast<std::size_t>(n));
        return true;
    }

    int fd_ = -1;
    std::string buf_;
    bool eof_ = false;
};

inline bool can_connect(unsigned short port) {
    try {
        raw_client c(port);
        return true;
    } catch (const std::system_error&) {
        return false;
    }
}

} // namespace mcp::test
