// mcp/transport/line_framer.hpp - newline-delimited framing with a size limit.
//
// Feed it bytes as they arrive; it hands out complete lines (without "\n" or a trailing "\r"),
// skips blank lines (JSON whitespace only: "", "\r", " \t"), and discards a line longer than
// the limit without buffering it, reporting it once. A 10 MiB line therefore costs no more
// memory than the limit.
#pragma once

#include <mcp/jsonrpc/envelope_scan.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <functional>
#include <string>
#include <string_view>

namespace mcp {

class line_framer {
public:
    explicit line_framer(std::size_t max_line = 4u << 20) : max_line_(max_line) {}
    void set_max_line(std::size_t n) noexcept { max_line_ = n; }

    /// Process `bytes`; calls on_line(line, last) for each complete line and on_oversize(size)
    /// once per discarded line (size = its length in bytes, known when its end arrives).
    /// `last` is true for the final complete line of `bytes`; by then the framer has already
    /// stored the incomplete rest, so another thread may go on feeding it while that line is
    /// being handled (the hand-off of reading).
    void feed(std::string_view bytes, const std::function<void(std::string_view, bool last)>& on_line,
              const std::function<void(std::size_t)>& on_oversize);
    /// True when bytes of an unfinished line are pending (EOF now would cut a message);
    /// blanks after the last message are not a message.
    bool partial() const noexcept;
    /// Inside on_oversize: the id of the response the discarded line was, when a shallow scan of
    /// its bytes as they went by could tell (jsonrpc::envelope_scan), so that the request it
    /// answers can fail at once.
    std::optional<std::int64_t> discarded_response_id() const noexcept { return discarded_response_; }

private:
    std::size_t max_line_;
    std::string pending_;
    bool discarding_ = false;
    std::size_t discarded_ = 0;
    jsonrpc::envelope_scan scan_; // of the line being discarded
    std::optional<std::int64_t> discarded_response_;
};

} // namespace mcp
