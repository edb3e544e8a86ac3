// http/client/sse_parser.hpp - Server-Sent Events, the event stream interpretation of the
// WHATWG HTML standard (section 9.2.6), incrementally, bytes in, events out.
//
//   * lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the
//     next are one line end); one leading UTF-8 BOM is skipped;
//   * "data" values are joined with "\n"; "event" sets the type (default "message"); "id"
//     sets the last event id unless the value holds a NUL; "retry" with only ASCII digits sets
//     the reconnection time; lines starting with ":" are comments; other fields are ignored;
//   * an empty line dispatches the event unless no "data" field was seen (the last event id
//     still updates); a stream that ends inside an event drops that event.
// Bounded: an event whose data would exceed max_event_bytes is discarded as it arrives (never
// buffered) and reported once with its size; other lines are cut at the same bound.
#pragma once

#include <mcp/jsonrpc/envelope_scan.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::http::detail {

struct sse_event {
    std::string_view type; ///< "message" unless an "event" field said otherwise
    std::string_view data;
    std::string_view last_event_id; ///< the stream's last event id when this event was dispatched
};

class sse_parser {
public:
    struct callbacks {
        std::function<void(const sse_event&)> on_event;
        std::function<void(std::uint64_t milliseconds)> on_retry;
        /// An event was dropped because its data reached `bytes` (> max_event_bytes).
        std::function<void(std::size_t bytes)> on_oversize;
    };

    explicit sse_parser(callbacks cb, std::size_t max_event_bytes = 4u << 20);

    /// Process bytes of the stream. A callback may call stop(): feed() then returns at once.
    void feed(std::string_view bytes);
    /// Stop dispatching (from inside a callback, for example): later feed() calls do nothing
    /// until new_connection().
    void stop() noexcept { stopped_ = true; }
    /// The stream continues over a new connection (a reconnection): the partial line and
    /// event are dropped and a BOM may come again; the last event id is kept.
    void new_connection();

    const std::string& last_event_id() const noexcept { return last_event_id_; }
    /// Inside on_oversize: the id of the response the dropped event's data was, when a shallow
    /// scan of it as it went by could tell (jsonrpc::envelope_scan).
    std::optional<std::int64_t> discarded_response_id() const noexcept { return discarded_response_; }
    void set_max_event_bytes(std::size_t n) noexcept { max_event_ = n; }

private:
    void line(std::string_view l);
    void dispatch();
    void field(std::string_view name, std::string_view value);

    callbacks cb_;
    std::size_t max_event_;
    std::string line_;      // the incomplete line
    bool line_cut_ = false; // the incomplete line exceeded the bound: its rest is skipped
    std::size_t line_size_ = 0;
    bool skip_lf_ = false; // the previous chunk ended in CR
    int bom_state_ = 0;    // bytes of a leading BOM matched so far; -1 once past the start
    std::string data_;
    bool has_data_ = false; // a data field was seen in this event
    bool oversize_ = false; // this event's data exceeded the bound
    std::size_t oversize_bytes_ = 0;
    jsonrpc::envelope_scan scan_;  // of an oversize event's data
    bool scan_cut_line_ = false;   // the cut line is a data line: its rest goes to scan_
    std::optional<std::int64_t> discarded_response_;
    std::string type_;
    std::string id_buffer_;
    std::string last_event_id_;
    bool stopped_ = false;
};

} // namespace mcp::http::detail
