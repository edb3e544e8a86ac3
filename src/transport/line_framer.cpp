#include <mcp/transport/line_framer.hpp>

namespace mcp {

void line_framer::feed(std::string_view bytes, const std::function<void(std::string_view)>& on_line,
                       const std::function<void(std::size_t)>& on_oversize) {
    while (!bytes.empty()) {
        const auto nl = bytes.find('\n');
        const std::string_view chunk = bytes.substr(0, nl);
        if (discarding_) {
            discarded_ += chunk.size();
        } else if (pending_.size() + chunk.size() > max_line_) {
            // Too long: drop what we have and skip to the end of the line.
            discarding_ = true;
            discarded_ = pending_.size() + chunk.size();
            std::string().swap(pending_);
        } else if (nl != std::string_view::npos && pending_.empty()) {
            // The common case: a whole line inside this chunk, delivered without copying.
            std::string_view line = chunk;
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            if (!line.empty()) on_line(line);
        } else {
            pending_.append(chunk);
        }
        if (nl == std::string_view::npos) return;
        if (discarding_) {
            discarding_ = false;
            on_oversize(discarded_);
            discarded_ = 0;
        } else if (!pending_.empty()) {
            std::string_view line = pending_;
            if (line.back() == '\r') line.remove_suffix(1);
            if (!line.empty()) on_line(line);
            pending_.clear();
        }
        bytes.remove_prefix(nl + 1);
    }
}

} // namespace mcp
