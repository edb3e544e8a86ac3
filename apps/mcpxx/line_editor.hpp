// The shell's line editor: a single-line editor on a raw (termios) terminal, with history, Tab
// completion, and output from other threads printed above the line being edited.
//
// Why our own rather than GNU readline or libedit: readline is GPL-3 (it would make the mcpxx
// binary GPL); libedit's readline emulation redraws badly when other threads print (log
// notifications arrive at any time), and both keep their state in globals that fight with our
// SIGINT handling. What the shell needs is small: edit one line, complete, recall history, and
// let server messages and questions (approval, elicitation) share the terminal without
// corrupting the line. A line longer than the terminal scrolls horizontally, so redrawing never
// has to know how the terminal wrapped it.
//
// Keys: printable text (UTF-8), Left/Right, Home/End (also Ctrl-A/Ctrl-E), Ctrl-B/Ctrl-F,
// Alt-B/Alt-F and Ctrl-Left/Ctrl-Right (word), Backspace, Delete, Ctrl-D (delete, or end of
// input on an empty line), Ctrl-K/Ctrl-U (kill to end/start), Ctrl-W and Alt-Backspace (kill
// word), Up/Down and Ctrl-P/Ctrl-N (history), Tab (complete), Ctrl-L (clear screen), Ctrl-C
// (abandon the line), Enter.
#pragma once

#include <mcp/jsonrpc/cancellation.hpp>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <termios.h>
#include <thread>
#include <vector>

namespace mcpxx_cli {

/// What Tab may insert at the cursor.
struct completion {
    std::size_t start = 0;               ///< the candidates replace line[start, cursor)
    std::vector<std::string> candidates; ///< whole replacements for that part
    bool append_space = true;            ///< after a unique candidate (not after "key=")
};
using completer = std::function<completion(const std::string& line, std::size_t cursor)>;

class line_editor {
public:
    enum class outcome {
        line,        ///< Enter
        interrupted, ///< Ctrl-C: the line was abandoned
        end,         ///< Ctrl-D on an empty line, or the terminal went away
        withdrawn,   ///< whoever asked no longer wants the answer: the question was taken away
    };
    struct result {
        outcome what = outcome::end;
        std::string text;
    };

    /// Keys are read from `in_fd`, the line is drawn on `out_fd`; both must be the same terminal.
    line_editor(int in_fd, int out_fd);
    ~line_editor(); ///< leaves the terminal as it found it
    line_editor(const line_editor&) = delete;
    line_editor& operator=(const line_editor&) = delete;

    /// Whether the editor can work there: both terminals, and TERM is not "dumb".
    static bool usable(int in_fd, int out_fd);

    /// Edit a line after `prompt` (which may contain colour codes). The terminal is raw only
    /// while this runs, so commands run in between see an ordinary terminal (and Ctrl-C is a
    /// signal again). Keys typed ahead or pasted after Enter are kept for the next call.
    result read_line(const std::string& prompt, const completer& complete = {});
    /// Remember a line for Up/Down (empty lines and repeats are not kept).
    void add_history(const std::string& line);

    /// Thread-safe: write `text` on `fd` above the line being edited (which is then redrawn);
    /// when no line is being edited, just write it (after clearing a progress bar). A missing
    /// final newline is added.
    void print(int fd, std::string_view text);
    /// Thread-safe: ask a question and read the answer, Tab offering what `complete` gives (the
    /// whole answer is the line it sees). If another thread is editing a line, that thread asks
    /// (its line is set aside meanwhile); otherwise this one does. nullopt on Ctrl-C, Ctrl-D, or
    /// end of input; `interrupted`, when given, tells Ctrl-C apart. When `withdrawn` is
    /// cancelled the question is taken off the screen (or never shown) and nullopt returned.
    std::optional<std::string> ask(const std::string& question, const completer& complete = {},
                                   bool* interrupted = nullptr,
                                   const mcp::cancellation_token& withdrawn = {});

private:
    struct state;
    struct ask_request {
        std::string question;
        completer complete;
        mcp::cancellation_token withdrawn;
        std::optional<std::string> answer;
        bool interrupted = false;
        bool started = false; ///< the reading thread is asking it
        bool done = false;
    };
    enum class key_kind;
    struct key;

    result edit(const std::string& prompt, const completer* complete, bool use_history,
                const mcp::cancellation_token& withdrawn = {});
    void wake();
    void serve_asks(std::unique_lock<std::mutex>& lock);
    bool fill_input(int timeout_ms, bool& woken);
    key next_key();
    bool apply(state& st, const key& k, std::optional<result>& done);
    void complete_at_cursor(state& st);
    void history_move(state& st, int delta);
    void refresh(const state& st); // mu_ held
    void write_out(std::string_view s) const;
    void enter_raw();
    void leave_raw();

    int in_, out_;
    int wake_[2] = {-1, -1};
    std::mutex mu_;
    std::condition_variable cv_;
    std::vector<state*> active_; ///< lines being edited, innermost last (the one drawn)
    std::optional<std::thread::id> reader_;
    std::deque<std::shared_ptr<ask_request>> asks_;
    std::string input_; ///< bytes read and not yet used
    std::vector<std::string> history_;
    termios saved_{};
    int raw_depth_ = 0;
};

} // namespace mcpxx_cli
