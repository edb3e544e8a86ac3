#include "line_editor.hpp"

#include <mcp/json/text.hpp>
#include <mcp/json/utf8.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace mcpxx_cli {
namespace {

bool continuation(char c) {
    return mcp::utf8::is_continuation(static_cast<unsigned char>(c));
}

std::size_t prev_boundary(const std::string& s, std::size_t pos) {
    return pos == 0 ? 0 : mcp::utf8::boundary_before(s, pos - 1);
}

std::size_t next_boundary(const std::string& s, std::size_t pos) {
    if (pos >= s.size()) return s.size();
    ++pos;
    while (pos < s.size() && continuation(s[pos])) ++pos;
    return pos;
}

/// Columns taken by `s`: one per code point, colour codes (ESC [ ... letter) take none. Wide
/// characters are counted as one column (a known simplification).
std::size_t visible_width(std::string_view s) {
    std::size_t w = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\033' && i + 1 < s.size() && s[i + 1] == '[') {
            i += 2;
            while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7E)) ++i;
            continue;
        }
        if (!continuation(s[i])) ++w;
    }
    return w;
}

/// Byte offset of the code point number `cp` of `s` (s.size() past the end).
std::size_t byte_of(const std::string& s, std::size_t cp) {
    std::size_t pos = 0;
    while (cp-- > 0 && pos < s.size()) pos = next_boundary(s, pos);
    return pos;
}

bool is_space(char c) {
    return c == ' ' || c == '\t';
}

} // namespace

enum class line_editor::key_kind {
    text,
    enter,
    tab,
    backspace,
    del,
    left,
    right,
    home,
    end,
    up,
    down,
    word_left,
    word_right,
    kill_end,
    kill_start,
    kill_word,
    clear_screen,
    interrupt,
    ctrl_d,
    ignore,
};

struct line_editor::key {
    key_kind kind = key_kind::ignore;
    std::string text;
};

struct line_editor::state {
    std::string prompt;
    std::string buf;
    std::size_t pos = 0; ///< byte offset, always at a code point boundary
    const completer* complete = nullptr;
    bool use_history = false;
    std::size_t history_index = 0; ///< history_.size() is the line being typed
    std::string typed;             ///< the line being typed, while browsing history
};

line_editor::line_editor(int in_fd, int out_fd) : in_(in_fd), out_(out_fd) {
    if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
}

line_editor::~line_editor() {
    {
        std::lock_guard lock(mu_);
        if (raw_depth_ > 0) {
            raw_depth_ = 1;
            leave_raw();
        }
    }
    if (wake_[0] >= 0) ::close(wake_[0]);
    if (wake_[1] >= 0) ::close(wake_[1]);
}

bool line_editor::usable(int in_fd, int out_fd) {
    const char* term = std::getenv("TERM");
    return ::isatty(in_fd) == 1 && ::isatty(out_fd) == 1 && !(term && std::string_view(term) == "dumb");
}

void line_editor::enter_raw() {
    if (raw_depth_++ > 0) return;
    if (::tcgetattr(in_, &saved_) != 0) return;
    termios raw = saved_;
    // No echo, no line buffering, no signals from keys (Ctrl-C is read as a key), no flow
    // control; output processing stays on so that "\n" from any thread still starts a line.
    raw.c_iflag &= ~static_cast<tcflag_t>(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    raw.c_cflag |= CS8;
    raw.c_lflag &= ~static_cast<tcflag_t>(ECHO | ICANON | IEXTEN | ISIG);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    ::tcsetattr(in_, TCSADRAIN, &raw); // TCSADRAIN, not TCSAFLUSH: keep what was typed ahead
}

void line_editor::leave_raw() {
    if (raw_depth_ == 0 || --raw_depth_ > 0) return;
    ::tcsetattr(in_, TCSADRAIN, &saved_);
}

void line_editor::write_out(std::string_view s) const {
    while (!s.empty()) {
        const auto n = ::write(out_, s.data(), s.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        s.remove_prefix(static_cast<std::size_t>(n));
    }
}

void line_editor::add_history(const std::string& line) {
    if (line.find_first_not_of(" \t") == std::string::npos) return;
    std::lock_guard lock(mu_);
    if (!history_.empty() && history_.back() == line) return;
    history_.push_back(line);
    if (history_.size() > 1000) history_.erase(history_.begin());
}

// ------------------------------------------------------------------ drawing

void line_editor::refresh(const state& st) {
    winsize ws{};
    const std::size_t cols = ::ioctl(out_, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
    const std::size_t prompt_w = visible_width(st.prompt);
    // The last column stays free so that the cursor never wraps to the next line.
    const std::size_t avail = cols > prompt_w + 1 ? cols - prompt_w - 1 : 1;
    const std::size_t cursor = visible_width(std::string_view(st.buf).substr(0, st.pos));
    const std::size_t first = cursor >= avail ? cursor - avail + 1 : 0;
    const std::size_t from = byte_of(st.buf, first);
    const std::size_t to = byte_of(st.buf, first + avail);
    std::string out = "\r" + st.prompt + st.buf.substr(from, to - from) + "\033[K\r";
    if (const auto col = prompt_w + cursor - first; col > 0) out += "\033[" + std::to_string(col) + "C";
    write_out(out);
}

void line_editor::print(int fd, std::string_view text) {
    std::lock_guard lock(mu_);
    std::string s(text);
    if (s.empty() || s.back() != '\n') s += '\n';
    // Clear the line being edited (or a progress bar) first; on the same terminal, stdout and
    // stderr interleave in the order written.
    if (!active_.empty() || ::isatty(fd) == 1) write_out("\r\033[K");
    for (std::string_view rest = s; !rest.empty();) {
        const auto n = ::write(fd, rest.data(), rest.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        rest.remove_prefix(static_cast<std::size_t>(n));
    }
    if (!active_.empty()) refresh(*active_.back());
}

// ------------------------------------------------------------------ input

bool line_editor::fill_input(int timeout_ms, bool& woken) {
    pollfd fds[2] = {{in_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    const int n = ::poll(fds, wake_[0] >= 0 ? 2 : 1, timeout_ms);
    if (n < 0) return errno == EINTR;
    if (n == 0) return true;
    if (wake_[0] >= 0 && (fds[1].revents & POLLIN)) {
        char drain[64];
        while (::read(wake_[0], drain, sizeof drain) > 0) {
        }
        woken = true;
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[4096];
        const auto r = ::read(in_, buf, sizeof buf);
        if (r < 0) return errno == EINTR || errno == EAGAIN;
        if (r == 0) return false;
        input_.append(buf, static_cast<std::size_t>(r));
    }
    return true;
}

line_editor::key line_editor::next_key() {
    const auto take = [this](std::size_t n, key_kind k) {
        input_.erase(0, n);
        return key{k, {}};
    };
    // An escape sequence may arrive in pieces: wait a little for the rest before deciding that
    // a lone ESC was pressed (which does nothing).
    const auto need = [this](std::size_t n) {
        for (int tries = 0; input_.size() < n && tries < 5; ++tries) {
            bool woken = false;
            if (!fill_input(20, woken)) break;
        }
        return input_.size() >= n;
    };
    const unsigned char c = static_cast<unsigned char>(input_[0]);
    if (c >= 0x20 && c != 0x7F) {
        std::size_t n = 0;
        while (n < input_.size() && static_cast<unsigned char>(input_[n]) >= 0x20 && input_[n] != 0x7F) ++n;
        key k{key_kind::text, input_.substr(0, n)};
        input_.erase(0, n);
        return k;
    }
    switch (c) {
    case 0x01:
        return take(1, key_kind::home);
    case 0x02:
        return take(1, key_kind::left);
    case 0x03:
        return take(1, key_kind::interrupt);
    case 0x04:
        return take(1, key_kind::ctrl_d);
    case 0x05:
        return take(1, key_kind::end);
    case 0x06:
        return take(1, key_kind::right);
    case 0x08:
    case 0x7F:
        return take(1, key_kind::backspace);
    case 0x09:
        return take(1, key_kind::tab);
    case 0x0A:
        return take(1, key_kind::enter);
    case 0x0D:
        return take(input_.size() > 1 && input_[1] == '\n' ? 2 : 1, key_kind::enter);
    case 0x0B:
        return take(1, key_kind::kill_end);
    case 0x0C:
        return take(1, key_kind::clear_screen);
    case 0x0E:
        return take(1, key_kind::down);
    case 0x10:
        return take(1, key_kind::up);
    case 0x15:
        return take(1, key_kind::kill_start);
    case 0x17:
        return take(1, key_kind::kill_word);
    case 0x1B:
        break;
    default:
        return take(1, key_kind::ignore);
    }
    if (!need(2)) return take(1, key_kind::ignore);
    const char c1 = input_[1];
    if (c1 == 'b' || c1 == 'B') return take(2, key_kind::word_left);
    if (c1 == 'f' || c1 == 'F') return take(2, key_kind::word_right);
    if (c1 == 0x7F || c1 == 0x08) return take(2, key_kind::kill_word);
    if (c1 == 'O') {
        if (!need(3)) return take(2, key_kind::ignore);
        switch (input_[2]) {
        case 'A':
            return take(3, key_kind::up);
        case 'B':
            return take(3, key_kind::down);
        case 'C':
            return take(3, key_kind::right);
        case 'D':
            return take(3, key_kind::left);
        case 'H':
            return take(3, key_kind::home);
        case 'F':
            return take(3, key_kind::end);
        default:
            return take(3, key_kind::ignore);
        }
    }
    if (c1 != '[') return take(2, key_kind::ignore);
    // CSI: parameter and intermediate bytes, then one final byte in 0x40..0x7E.
    std::size_t end = 2;
    for (;;) {
        if (!need(end + 1)) return take(input_.size(), key_kind::ignore);
        const char b = input_[end];
        if (b >= 0x40 && b <= 0x7E) break;
        ++end;
    }
    const std::string params = input_.substr(2, end - 2);
    const char final_byte = input_[end];
    const bool modified = params.find(';') != std::string::npos; // 1;5C = Ctrl-Right, 1;3C = Alt-Right
    const std::size_t n = end + 1;
    switch (final_byte) {
    case 'A':
        return take(n, key_kind::up);
    case 'B':
        return take(n, key_kind::down);
    case 'C':
        return take(n, modified ? key_kind::word_right : key_kind::right);
    case 'D':
        return take(n, modified ? key_kind::word_left : key_kind::left);
    case 'H':
        return take(n, key_kind::home);
    case 'F':
        return take(n, key_kind::end);
    case '~':
        if (params == "1" || params == "7") return take(n, key_kind::home);
        if (params == "4" || params == "8") return take(n, key_kind::end);
        if (params == "3") return take(n, key_kind::del);
        return take(n, key_kind::ignore);
    default:
        return take(n, key_kind::ignore);
    }
}

// ------------------------------------------------------------------ editing

void line_editor::history_move(state& st, int delta) {
    if (!st.use_history || history_.empty()) return;
    if (st.history_index == history_.size()) st.typed = st.buf;
    if (delta < 0 && st.history_index == 0) return;
    if (delta > 0 && st.history_index == history_.size()) return;
    st.history_index = delta < 0 ? st.history_index - 1 : st.history_index + 1;
    st.buf = st.history_index == history_.size() ? st.typed : history_[st.history_index];
    st.pos = st.buf.size();
}

bool line_editor::apply(state& st, const key& k, std::optional<result>& done) {
    auto& b = st.buf;
    auto& p = st.pos;
    switch (k.kind) {
    case key_kind::text:
        b.insert(p, k.text);
        p += k.text.size();
        break;
    case key_kind::enter:
        // The whole line, wrapped by the terminal, so that the scrollback shows what was run.
        write_out("\r" + st.prompt + b + "\033[K\n");
        done = result{outcome::line, b};
        break;
    case key_kind::interrupt:
        write_out("\r" + st.prompt + b + "^C\033[K\n");
        done = result{outcome::interrupted, {}};
        break;
    case key_kind::ctrl_d:
        if (b.empty()) {
            write_out("\n");
            done = result{outcome::end, {}};
        } else if (p < b.size()) {
            b.erase(p, next_boundary(b, p) - p);
        }
        break;
    case key_kind::backspace:
        if (p > 0) {
            const auto q = prev_boundary(b, p);
            b.erase(q, p - q);
            p = q;
        }
        break;
    case key_kind::del:
        if (p < b.size()) b.erase(p, next_boundary(b, p) - p);
        break;
    case key_kind::left:
        p = prev_boundary(b, p);
        break;
    case key_kind::right:
        p = next_boundary(b, p);
        break;
    case key_kind::home:
        p = 0;
        break;
    case key_kind::end:
        p = b.size();
        break;
    case key_kind::word_left:
        while (p > 0 && is_space(b[p - 1])) --p;
        while (p > 0 && !is_space(b[p - 1])) --p;
        break;
    case key_kind::word_right:
        while (p < b.size() && is_space(b[p])) ++p;
        while (p < b.size() && !is_space(b[p])) ++p;
        break;
    case key_kind::kill_end:
        b.erase(p);
        break;
    case key_kind::kill_start:
        b.erase(0, p);
        p = 0;
        break;
    case key_kind::kill_word: {
        auto q = p;
        while (q > 0 && is_space(b[q - 1])) --q;
        while (q > 0 && !is_space(b[q - 1])) --q;
        b.erase(q, p - q);
        p = q;
        break;
    }
    case key_kind::up:
        history_move(st, -1);
        break;
    case key_kind::down:
        history_move(st, +1);
        break;
    case key_kind::clear_screen:
        write_out("\033[H\033[2J");
        break;
    case key_kind::tab:
        return false; // the caller completes, without holding the lock
    case key_kind::ignore:
        break;
    }
    return true;
}

void line_editor::complete_at_cursor(state& st) {
    const std::string line = st.buf;
    const std::size_t cursor = st.pos;
    mu_.unlock(); // the completer may ask a server: let other threads print meanwhile
    completion c;
    try {
        c = (*st.complete)(line, cursor);
    } catch (...) {
        c = {};
    }
    mu_.lock();
    // Candidates come from servers (tool names, URIs, completion values): one with a control
    // character would drive the terminal when drawn, and no one could have typed it. Left out.
    std::erase_if(c.candidates, [](const std::string& cand) { return mcp::printable(cand) != cand; });
    if (c.candidates.empty() || c.start > cursor) return;
    const std::string word = line.substr(c.start, cursor - c.start);
    if (c.candidates.size() == 1) {
        std::string insert = c.candidates.front();
        if (c.append_space && !(cursor < line.size() && line[cursor] == ' ')) insert += ' ';
        st.buf.replace(c.start, cursor - c.start, insert);
        st.pos = c.start + insert.size();
        return;
    }
    std::string common = c.candidates.front();
    for (const auto& cand : c.candidates) {
        std::size_t n = 0;
        while (n < common.size() && n < cand.size() && common[n] == cand[n]) ++n;
        common.resize(n);
    }
    while (!common.empty() && continuation(common.back())) common.pop_back(); // whole code points
    if (common.size() > word.size() && common.compare(0, word.size(), word) == 0) {
        st.buf.replace(c.start, cursor - c.start, common);
        st.pos = c.start + common.size();
        return;
    }
    // Nothing to add: show the choices above the line, in columns.
    winsize ws{};
    const std::size_t cols = ::ioctl(out_, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
    constexpr std::size_t shown_max = 200;
    const std::size_t shown = std::min(c.candidates.size(), shown_max);
    std::size_t w = 0;
    for (std::size_t i = 0; i < shown; ++i) w = std::max(w, visible_width(c.candidates[i]) + 2);
    const std::size_t per_row = std::max<std::size_t>(1, cols / std::max<std::size_t>(w, 1));
    std::string out = "\r\033[K";
    for (std::size_t i = 0; i < shown; ++i) {
        out += c.candidates[i];
        const bool last_in_row = (i + 1) % per_row == 0 || i + 1 == shown;
        out += last_in_row ? "\n" : std::string(w - visible_width(c.candidates[i]), ' ');
    }
    if (c.candidates.size() > shown)
        out += "... and " + std::to_string(c.candidates.size() - shown) + " more\n";
    write_out(out);
}

// ------------------------------------------------------------------ the editing loop

void line_editor::wake() {
    if (wake_[1] >= 0) {
        [[maybe_unused]] auto n = ::write(wake_[1], "w", 1);
    }
}

line_editor::result line_editor::edit(const std::string& prompt, const completer* complete, bool use_history,
                                      const mcp::cancellation_token& withdrawn) {
    state st;
    st.prompt = prompt;
    st.complete = complete && *complete ? complete : nullptr;
    st.use_history = use_history;
    std::unique_lock lock(mu_);
    st.history_index = history_.size();
    enter_raw();
    active_.push_back(&st);
    refresh(st);
    std::optional<result> done;
    while (!done) {
        if (withdrawn.is_cancelled()) {
            write_out("\r\033[K"); // the question goes; whoever asked says why
            done = result{outcome::withdrawn, {}};
            break;
        }
        if (!asks_.empty()) {
            serve_asks(lock);
            refresh(st);
        }
        if (input_.empty()) {
            lock.unlock();
            bool woken = false;
            const bool open = fill_input(-1, woken);
            lock.lock();
            if (!open) {
                write_out("\n");
                done = result{outcome::end, {}};
            }
            continue;
        }
        // Every key already read is applied before redrawing once: a paste costs one redraw.
        while (!done && !input_.empty()) {
            lock.unlock();
            const key k = next_key();
            lock.lock();
            if (!apply(st, k, done) && st.complete) complete_at_cursor(st);
        }
        if (!done) refresh(st);
    }
    active_.pop_back();
    leave_raw();
    if (done->what == outcome::line && use_history) {
        lock.unlock();
        add_history(done->text);
    }
    return *done;
}

void line_editor::serve_asks(std::unique_lock<std::mutex>& lock) {
    while (!asks_.empty()) {
        auto request = asks_.front();
        asks_.pop_front();
        request->started = true;
        write_out("\r\033[K"); // set the line being edited aside; it is redrawn afterwards
        lock.unlock();
        auto r = edit(request->question, request->complete ? &request->complete : nullptr, false,
                      request->withdrawn);
        lock.lock();
        if (r.what == outcome::line) request->answer = std::move(r.text);
        request->interrupted = r.what == outcome::interrupted;
        request->done = true;
        cv_.notify_all();
    }
}

line_editor::result line_editor::read_line(const std::string& prompt, const completer& complete) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return !reader_; }); // another thread may be asking a question
    reader_ = std::this_thread::get_id();
    lock.unlock();
    auto r = edit(prompt, &complete, true);
    lock.lock();
    serve_asks(lock); // questions that came while the line was being finished
    reader_.reset();
    cv_.notify_all();
    return r;
}

std::optional<std::string> line_editor::ask(const std::string& question, const completer& complete,
                                            bool* interrupted, const mcp::cancellation_token& withdrawn) {
    if (interrupted) *interrupted = false;
    // A withdrawal wakes whichever thread reads the keys (and one waiting for its turn).
    const auto registration = withdrawn.on_cancel([this] {
        wake();
        std::lock_guard lock(mu_);
        cv_.notify_all();
    });
    struct unregister {
        const mcp::cancellation_token& token;
        std::uint64_t registration;
        ~unregister() { token.remove_callback(registration); }
    } done{withdrawn, registration};
    std::unique_lock lock(mu_);
    if (withdrawn.is_cancelled()) return std::nullopt;
    if (reader_ && *reader_ != std::this_thread::get_id()) {
        auto request = std::make_shared<ask_request>();
        request->question = question;
        request->complete = complete;
        request->withdrawn = withdrawn;
        asks_.push_back(request);
        wake();
        cv_.wait(lock, [&] { return request->done || (!request->started && withdrawn.is_cancelled()); });
        if (!request->done) { // withdrawn before its turn came: never shown
            std::erase(asks_, request);
            return std::nullopt;
        }
        if (interrupted) *interrupted = request->interrupted;
        return request->answer;
    }
    const bool owner = !reader_;
    if (owner) reader_ = std::this_thread::get_id();
    lock.unlock();
    auto r = edit(question, complete ? &complete : nullptr, false, withdrawn);
    lock.lock();
    if (owner) {
        serve_asks(lock);
        reader_.reset();
        cv_.notify_all();
    }
    if (interrupted) *interrupted = r.what == outcome::interrupted;
    if (r.what != outcome::line) return std::nullopt;
    return r.text;
}

} // namespace mcpxx_cli
