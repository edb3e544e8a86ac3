// One pipe, both ends closed when it goes: for tests that play the other end of a pipe transport.
#pragma once

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

namespace mcp::test {

struct pipe_pair {
    int fd[2] = {-1, -1}; ///< [0] read end, [1] write end; -1 once a test closed it itself
    pipe_pair() { EXPECT_EQ(::pipe2(fd, O_CLOEXEC), 0); }
    ~pipe_pair() {
        for (int f : fd)
            if (f >= 0) ::close(f);
    }
    /// Hand end `i` over (to a transport that closes it): this pipe_pair no longer closes it.
    int release(int i) {
        int f = fd[i];
        fd[i] = -1;
        return f;
    }
    /// Close end `i` now (e.g. the peer hangs up).
    void close_end(int i) {
        ::close(fd[i]);
        fd[i] = -1;
    }
    pipe_pair(const pipe_pair&) = delete;
    pipe_pair& operator=(const pipe_pair&) = delete;
};

} // namespace mcp::test
