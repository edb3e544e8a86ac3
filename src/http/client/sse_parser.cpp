// http/client/sse_parser.cpp - see sse_parser.hpp.
#include "sse_parser.hpp"

namespace mcp::http::detail {

namespace {
// Room for a field name and ": " in front of a value of max_event_bytes.
constexpr std::size_t line_slack = 64;
constexpr unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
} // namespace

sse_parser::sse_parser(callbacks cb, std::size_t max_event_bytes)
    : cb_(std::move(cb)), max_event_(max_event_bytes) {}

void sse_parser::new_connection() {
    line_.clear();
    line_cut_ = false;
    line_size_ = 0;
    skip_lf_ = false;
    bom_state_ = 0;
    data_.clear();
    has_data_ = false;
    oversize_ = false;
    oversize_bytes_ = 0;
    scan_cut_line_ = false;
    type_.clear();
    // Resumption continues from the last id seen, so the id buffer starts from it.
    id_buffer_ = last_event_id_;
    stopped_ = false;
}

void sse_parser::feed(std::string_view bytes) {
    if (stopped_) return;
    // One leading BOM is not part of the stream; it may arrive split across chunks.
    while (bom_state_ >= 0 && !bytes.empty()) {
        if (static_cast<unsigned char>(bytes.front()) == bom[bom_state_]) {
            bytes.remove_prefix(1);
            if (++bom_state_ == 3) bom_state_ = -1;
            continue;
        }
        const int matched = bom_state_;
        bom_state_ = -1;
        if (matched > 0) { // not a BOM after all: those bytes are content
            std::string prefix(reinterpret_cast<const char*>(bom), static_cast<std::size_t>(matched));
            feed(prefix);
            if (stopped_) return;
        }
    }

    std::size_t i = 0;
    if (skip_lf_ && !bytes.empty()) {
        if (bytes.front() == '\n') i = 1;
        skip_lf_ = false;
    }
    const std::size_t limit = max_event_ + line_slack;
    while (i < bytes.size() && !stopped_) {
        const std::size_t j = bytes.find_first_of("\r\n", i);
        const std::string_view piece =
            bytes.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i);
        line_size_ += piece.size();
        if (line_cut_ && scan_cut_line_) scan_.feed(piece);
        if (!line_cut_) {
            if (line_.size() + piece.size() > limit) {
                // Too long to keep. Only a data line matters: it makes its event oversize.
                std::string head = line_;
                head.append(piece.substr(0, 8));
                const bool data_line = head.rfind("data:", 0) == 0;
                line_cut_ = true;
                if (data_line) {
                    has_data_ = true;
                    if (!oversize_) {
                        oversize_ = true;
                        oversize_bytes_ = data_.size();
                        scan_.reset();
                        scan_.feed(data_); // the lines before, each ending in LF
                        std::string().swap(data_);
                    } else {
                        scan_.feed("\n");
                    }
                    // The value so far ("data:" and one space are not part of it).
                    std::string value = line_;
                    value.append(piece);
                    std::string_view v = std::string_view(value).substr(5);
                    if (!v.empty() && v.front() == ' ') v.remove_prefix(1);
                    scan_.feed(v);
                    scan_cut_line_ = true;
                }
                line_.clear();
            } else if (j != std::string_view::npos && line_.empty()) {
                line(piece); // the whole line is in this chunk: no copy
            } else {
                line_.append(piece);
            }
        }
        if (j == std::string_view::npos) break; // the line continues in the next chunk

        // A line is complete.
        if (line_cut_) {
            if (oversize_) oversize_bytes_ += line_size_;
        } else if (!line_.empty()) {
            line(line_); // callbacks never touch line_
            line_.clear();
        }
        line_cut_ = false;
        scan_cut_line_ = false;
        line_size_ = 0;
        std::size_t next = j + 1;
        if (bytes[j] == '\r') {
            if (next < bytes.size()) {
                if (bytes[next] == '\n') ++next;
            } else {
                skip_lf_ = true;
            }
        }
        i = next;
    }
}

void sse_parser::line(std::string_view l) {
    if (l.empty()) {
        dispatch();
        return;
    }
    if (l.front() == ':') return; // comment (keep-alive)
    const auto colon = l.find(':');
    if (colon == std::string_view::npos) {
        field(l, {});
        return;
    }
    std::string_view value = l.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    field(l.substr(0, colon), value);
}

void sse_parser::field(std::string_view name, std::string_view value) {
    if (name == "data") {
        has_data_ = true;
        if (oversize_) {
            oversize_bytes_ += value.size() + 1;
            scan_.feed("\n");
            scan_.feed(value);
        } else if (data_.size() + value.size() + 1 > max_event_ + 1) {
            // +1: the final LF is removed at dispatch, so max_event_ bytes of data fit.
            oversize_ = true;
            oversize_bytes_ = data_.size() + value.size();
            scan_.reset();
            scan_.feed(data_);
            scan_.feed(value);
            std::string().swap(data_);
        } else {
            data_.append(value);
            data_.push_back('\n');
        }
    } else if (name == "event") {
        type_.assign(value);
    } else if (name == "id") {
        if (value.find('\0') == std::string_view::npos) id_buffer_.assign(value);
    } else if (name == "retry") {
        if (value.empty() || value.size() > 18) return;
        std::uint64_t ms = 0;
        for (char c : value) {
            if (c < '0' || c > '9') return;
            ms = ms * 10 + static_cast<std::uint64_t>(c - '0');
        }
        if (cb_.on_retry) cb_.on_retry(ms);
    }
    // Any other field is ignored.
}

void sse_parser::dispatch() {
    last_event_id_ = id_buffer_;
    if (!has_data_) {
        type_.clear();
        return;
    }
    if (oversize_) {
        const std::size_t bytes = oversize_bytes_;
        oversize_ = false;
        oversize_bytes_ = 0;
        has_data_ = false;
        type_.clear();
        discarded_response_ = scan_.response_id();
        if (cb_.on_oversize) cb_.on_oversize(bytes);
        discarded_response_.reset();
        return;
    }
    if (!data_.empty() && data_.back() == '\n') data_.pop_back();
    const std::string_view type = type_.empty() ? std::string_view("message") : std::string_view(type_);
    if (cb_.on_event) cb_.on_event(sse_event{type, data_, last_event_id_});
    data_.clear();
    has_data_ = false;
    type_.clear();
}

} // namespace mcp::http::detail
