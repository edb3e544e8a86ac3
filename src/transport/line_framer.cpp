#include <mcp/transport/line_framer.hpp>

#include <vector>

namespace mcp {

namespace {
std::string_view trim_cr(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

// A line of JSON whitespace only (RFC 8259: space, tab, CR) carries no message: a client that
// writes "\n\n" or "\r\n" between messages must not get a parse error for nothing.
bool blank(std::string_view line) {
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}
} // namespace

bool line_framer::partial() const noexcept {
    return discarding_ || !blank(pending_);
}

void line_framer::feed(std::string_view bytes, const std::function<void(std::string_view, bool)>& on_line,
                       const std::function<void(std::size_t)>& on_oversize) {
    const auto last_nl = bytes.rfind('\n');
    if (last_nl == std::string_view::npos) { // no line ends here: just accumulate (or skip)
        if (discarding_) {
            discarded_ += bytes.size();
            scan_.feed(bytes);
        } else if (pending_.size() + bytes.size() > max_line_) {
            discarding_ = true;
            discarded_ = pending_.size() + bytes.size();
            scan_.reset();
            scan_.feed(pending_);
            scan_.feed(bytes);
            std::string().swap(pending_);
        } else {
            pending_.append(bytes);
        }
        return;
    }

    // Collect the events of this chunk first: lines (views into `bytes`, or into `joined` for a
    // line that began in an earlier chunk) and oversize reports, in order.
    struct event {
        std::string_view line;
        std::size_t oversize = 0;
        std::optional<std::int64_t> response; // of an oversize line
    };
    // A discarded line: its size, and what the scan of its bytes found.
    auto oversize = [](std::size_t size, const jsonrpc::envelope_scan& scan) {
        return event{{}, size, scan.response_id()};
    };
    std::vector<event> events;
    std::string joined;
    std::string_view rest = bytes.substr(0, last_nl + 1);
    bool first = true;
    while (!rest.empty()) {
        const auto nl = rest.find('\n');
        const std::string_view chunk = rest.substr(0, nl);
        rest.remove_prefix(nl + 1);
        if (first && (discarding_ || !pending_.empty())) {
            first = false;
            if (discarding_) {
                scan_.feed(chunk);
                events.push_back(oversize(discarded_ + chunk.size(), scan_));
                discarding_ = false;
                discarded_ = 0;
            } else if (pending_.size() + chunk.size() > max_line_) {
                scan_.reset();
                scan_.feed(pending_);
                scan_.feed(chunk);
                events.push_back(oversize(pending_.size() + chunk.size(), scan_));
                pending_.clear();
            } else {
                joined = std::move(pending_);
                pending_.clear();
                joined.append(chunk);
                auto line = trim_cr(joined);
                if (!blank(line)) events.push_back({line, 0, std::nullopt});
            }
            continue;
        }
        first = false;
        if (chunk.size() > max_line_) {
            scan_.reset();
            scan_.feed(chunk);
            events.push_back(oversize(chunk.size(), scan_));
        } else if (auto line = trim_cr(chunk); !blank(line)) {
            events.push_back({line, 0, std::nullopt});
        }
    }

    // Store the incomplete tail before anything is delivered.
    const std::string_view tail = bytes.substr(last_nl + 1);
    if (tail.size() > max_line_) {
        discarding_ = true;
        discarded_ = tail.size();
        scan_.reset();
        scan_.feed(tail);
    } else {
        pending_.assign(tail);
    }

    for (std::size_t i = 0; i < events.size(); ++i) {
        if (events[i].oversize) {
            discarded_response_ = events[i].response;
            on_oversize(events[i].oversize);
            discarded_response_.reset();
        }
        else
            on_line(events[i].line, i + 1 == events.size());
    }
}

} // namespace mcp
