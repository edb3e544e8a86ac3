// jsonrpc/envelope_scan.cpp - see mcp/jsonrpc/envelope_scan.hpp.
#include <mcp/jsonrpc/envelope_scan.hpp>

#include <charconv>
#include <limits>

namespace mcp::jsonrpc {

namespace {
constexpr std::size_t longest_key = 8;     // "method", "result": longer keys are none of ours
constexpr std::size_t longest_id_text = 20; // the digits of an int64 and its sign
} // namespace

void envelope_scan::end_id_value() noexcept {
    in_id_ = false;
    std::int64_t v = 0;
    const char* first = id_text_.data();
    const char* last = first + id_text_.size();
    auto [end, ec] = std::from_chars(first, last, v);
    if (ec == std::errc() && end == last && !id_text_.empty())
        id_ = v;
    else
        broken_ = true; // a fraction, an exponent, a string, null...: not an id we sent
}

void envelope_scan::feed(std::string_view bytes) noexcept {
    for (const char c : bytes) {
        if (broken_) return;
        if (in_string_) {
            if (escaped_) {
                escaped_ = false;
                if (in_key_) key_.assign(longest_key + 1, '?'); // an escaped key is none of ours
            } else if (c == '\\') {
                escaped_ = true;
            } else if (c == '"') {
                in_string_ = false;
                if (in_key_) {
                    in_key_ = false;
                    after_key_ = true;
                }
            } else if (in_key_ && key_.size() <= longest_key) {
                key_.push_back(c);
            }
            continue;
        }
        switch (c) {
        case ' ':
        case '\t':
        case '\r':
        case '\n':
            if (in_id_ && !id_text_.empty()) end_id_value();
            continue;
        case '"':
            in_string_ = true;
            if (!started_) {
                broken_ = true; // a string, not an object
            } else if (depth_ == 1 && expect_key_) {
                expect_key_ = false;
                in_key_ = true;
                key_.clear();
            } else if (depth_ == 1 && in_id_) {
                broken_ = true; // a string id: not one of ours
            }
            continue;
        case '{':
        case '[':
            if (!started_) {
                started_ = true;
                object_ = c == '{';
                if (!object_) broken_ = true; // a batch: no single id
            }
            if (depth_ == 1 && in_id_) broken_ = true;
            // An oversize line is scanned to its end however long: 2^31 brackets must not
            // overflow (this runs noexcept). So deep, the nesting is lost: no id to trust.
            if (depth_ == std::numeric_limits<int>::max()) {
                broken_ = true;
                continue;
            }
            ++depth_;
            if (depth_ == 1) expect_key_ = true;
            continue;
        case '}':
        case ']':
            if (depth_ == 1 && in_id_) end_id_value();
            if (depth_ == std::numeric_limits<int>::min()) {
                broken_ = true; // unbalanced beyond counting, as above
                continue;
            }
            --depth_;
            continue;
        case ':':
            if (depth_ == 1 && after_key_) {
                after_key_ = false;
                if (key_ == "id") {
                    if (++ids_ > 1) broken_ = true;
                    in_id_ = true;
                    id_text_.clear();
                } else if (key_ == "method") {
                    method_ = true;
                } else if (key_ == "result" || key_ == "error") {
                    result_or_error_ = true;
                }
            }
            continue;
        case ',':
            if (depth_ == 1) {
                if (in_id_) end_id_value();
                expect_key_ = true;
            }
            continue;
        default:
            if (!started_) {
                broken_ = true;
            } else if (depth_ == 1 && in_id_) {
                if (id_text_.size() >= longest_id_text) broken_ = true;
                id_text_.push_back(c);
            }
            continue;
        }
    }
}

std::optional<std::int64_t> envelope_scan::response_id() const noexcept {
    if (broken_ || !object_ || in_id_ || ids_ != 1 || method_ || !result_or_error_) return std::nullopt;
    return id_;
}

} // namespace mcp::jsonrpc
