// mcp/jsonrpc/envelope_scan.hpp - a shallow look at the top level of a message that cannot be
// used (over the size limit, invalid UTF-8, nested too deep): is it a response, and to which id?
//
// The receiver of such a message would otherwise drop it and leave the request it answers to
// wait for its whole timeout. The scan reads the bytes once, as they go by (a message over the
// size limit is never kept whole), and looks only at the members of the top-level object: a
// response is an object with "result" or "error", no "method", and exactly one "id", an
// integer (the ids mcpxx sends). Anything less certain - two "id" members, an id that is not a
// plain integer, text that is not an object - gives no id: a message that cannot be attributed
// is not guessed at.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::jsonrpc {

class envelope_scan {
public:
    /// Read the next bytes of the message.
    void feed(std::string_view bytes) noexcept;
    /// The id of the response the bytes so far are, or nullopt (see the top of this file).
    std::optional<std::int64_t> response_id() const noexcept;
    /// Start again, for another message.
    void reset() noexcept { *this = envelope_scan(); }

private:
    void end_id_value() noexcept;

    int depth_ = 0;
    bool started_ = false, object_ = false, broken_ = false;
    bool in_string_ = false, escaped_ = false;
    bool expect_key_ = false, in_key_ = false, after_key_ = false;
    std::string key_;
    bool in_id_ = false; // reading the value of the top-level "id"
    std::string id_text_;
    int ids_ = 0;
    std::optional<std::int64_t> id_;
    bool method_ = false, result_or_error_ = false;
};

} // namespace mcp::jsonrpc
