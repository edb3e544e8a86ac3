// http/input_buffer.hpp - the bytes a connection of the HTTP server has read and not yet parsed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

namespace mcp::http::core::detail {

// Bytes read and not yet parsed. A plain array rather than std::string: a read may be in
// progress into the free tail while the front is parsed, so the storage only moves (compaction,
// growth) in prepare(), which the connection calls when no read is outstanding.
class input_buffer {
public:
    static constexpr std::size_t initial_bytes = 4096;
    /// Free space below which the buffer is compacted or grown before a read.
    static constexpr std::size_t min_read_space = 1024;

    explicit input_buffer(std::size_t max) : max_(std::max(max, initial_bytes)) {}

    std::string_view data() const { return {buf_.get() + begin_, end_ - begin_}; }
    bool empty() const { return begin_ == end_; }
    void consume(std::size_t n) { begin_ += n; }
    void commit(std::size_t n) { end_ += n; }
    void clear() { begin_ = end_ = 0; } // only with no read outstanding

    // Free space to read into (empty when the buffer is full and may not grow).
    std::span<char> prepare() {
        if (begin_ == end_) begin_ = end_ = 0;
        if (!buf_) {
            cap_ = initial_bytes;
            buf_ = std::make_unique<char[]>(cap_);
        }
        if (cap_ - end_ < min_read_space && begin_ > 0) {
            std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
            end_ -= begin_;
            begin_ = 0;
        }
        if (cap_ - end_ < min_read_space && cap_ < max_) {
            std::size_t cap = std::min(max_, cap_ * 2);
            auto grown = std::make_unique<char[]>(cap);
            std::memcpy(grown.get(), buf_.get() + begin_, end_ - begin_);
            end_ -= begin_;
            begin_ = 0;
            buf_ = std::move(grown);
            cap_ = cap;
        }
        return {buf_.get() + end_, cap_ - end_};
    }

private:
    std::unique_ptr<char[]> buf_;
    std::size_t cap_ = 0;
    std::size_t begin_ = 0;
    std::size_t end_ = 0;
    const std::size_t max_;
};

} // namespace mcp::http::core::detail
