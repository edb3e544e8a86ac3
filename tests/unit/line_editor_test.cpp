// The shell's line editor (apps/mcpxx/line_editor.cpp) on a pseudo-terminal: keys as a terminal
// sends them, what comes back, output and questions from other threads while a line is edited,
// and the terminal left as it was found.
#include "line_editor.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <fcntl.h>
#include <future>
#include <sys/ioctl.h>
#include <termios.h>
#include <thread>
#include <unistd.h>

namespace {

using namespace std::chrono_literals;
using mcpxx_cli::line_editor;
using outcome = line_editor::outcome;

/// A pseudo-terminal: the editor gets the terminal side, the test types on the other side and
/// collects what the editor draws.
class pty {
public:
    pty() {
        master_ = ::posix_openpt(O_RDWR | O_NOCTTY);
        if (master_ < 0 || ::grantpt(master_) != 0 || ::unlockpt(master_) != 0)
            throw std::runtime_error("no pty");
        slave_ = ::open(::ptsname(master_), O_RDWR | O_NOCTTY);
        if (slave_ < 0) throw std::runtime_error("no pty");
        winsize ws{};
        ws.ws_col = 80;
        ws.ws_row = 24;
        ::ioctl(slave_, TIOCSWINSZ, &ws);
        drain_ = std::thread([this] {
            char buf[4096];
            for (;;) {
                const auto n = ::read(master_, buf, sizeof buf);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) return; // EIO once the terminal side is closed
                std::lock_guard lock(mu_);
                output_.append(buf, static_cast<std::size_t>(n));
                cv_.notify_all();
            }
        });
    }
    ~pty() {
        ::close(slave_);
        drain_.join();
        ::close(master_);
    }
    int terminal() const { return slave_; }
    void type(const std::string& keys) const {
        ASSERT_EQ(::write(master_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size()));
    }
    /// Where the output is now; wait_for looks after it.
    std::size_t mark() {
        std::lock_guard lock(mu_);
        return output_.size();
    }
    bool wait_for(const std::string& text, std::size_t from) {
        std::unique_lock lock(mu_);
        return cv_.wait_for(lock, 30s, [&] { return output_.find(text, from) != std::string::npos; });
    }
    std::string output_since(std::size_t from) {
        std::lock_guard lock(mu_);
        return output_.substr(std::min(from, output_.size()));
    }

private:
    int master_ = -1, slave_ = -1;
    std::thread drain_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::string output_;
};

struct line_editor_test : ::testing::Test {
    pty term;
    line_editor editor{term.terminal(), term.terminal()};

    int prompts = 0;
    /// A prompt never drawn before: seeing it proves that this read has begun (and that the
    /// terminal is raw: keys typed before that would meet the terminal's own line editing).
    std::string prompt() { return "[" + std::to_string(++prompts) + "]> "; }

    /// Read one line; `keys` are typed once the prompt is drawn.
    line_editor::result line(const std::string& keys, const mcpxx_cli::completer& complete = {}) {
        const auto from = term.mark();
        const auto p = prompt();
        auto r = std::async(std::launch::async, [&] { return editor.read_line(p, complete); });
        EXPECT_TRUE(term.wait_for(p, from));
        term.type(keys);
        if (r.wait_for(30s) != std::future_status::ready) {
            term.type("\x03"); // unblock it
            ADD_FAILURE() << "no line for keys " << ::testing::PrintToString(keys);
        }
        return r.get();
    }
    std::string text(const std::string& keys) {
        auto r = line(keys);
        EXPECT_EQ(r.what, outcome::line) << ::testing::PrintToString(keys);
        return r.text;
    }
};

TEST_F(line_editor_test, moving_and_inserting) {
    EXPECT_EQ(text("abc\r"), "abc");
    EXPECT_EQ(text("abc\x1b[D\x1b[DX\x01Y\x05Z\r"), "YaXbcZ");       // Left, Home (Ctrl-A), End (Ctrl-E)
    EXPECT_EQ(text("abc\x02\x02\x1b[CX\x1b[H<\x1b[F>\r"), "<abXc>"); // Ctrl-B, Right, Home, End
    EXPECT_EQ(text("abc\x1bOD\x1b[1~-\x1b[4~+\r"), "-abc+");         // SS3 Left, Home/End as ~ keys
    EXPECT_EQ(text("one two three\x1b"
                   "b\x1b"
                   "b_\x1b"
                   "f|\r"),
              "one _two| three");                                  // Alt-B, Alt-F
    EXPECT_EQ(text("one two\x1b[1;5D_\x1b[1;5C|\r"), "one _two|"); // Ctrl-Left, Ctrl-Right
    EXPECT_EQ(text("\x1b[200~pasted\x1b[201~\r"), "pasted");       // unknown sequences are ignored
    EXPECT_EQ(text("a\tb\r"), "ab");                               // Tab without a completer
}

TEST_F(line_editor_test, deleting) {
    EXPECT_EQ(text("héllo wörld\x7f\x7f\x7f\x7f\r"), "héllo w");    // Backspace, by code point
    EXPECT_EQ(text("héllo\x1b[D\x1b[D\x1b[D\x1b[D\x08\r"), "éllo"); // Ctrl-H
    EXPECT_EQ(text("héllo\x01\x1b[C\x1b[3~\r"), "hllo");            // Delete
    EXPECT_EQ(text("ab\x01\x04\r"), "b");                           // Ctrl-D deletes under the cursor
    EXPECT_EQ(text("one two  \x17three\r"), "one three");           // Ctrl-W
    EXPECT_EQ(text("abcd\x02\x02\x0b\r"), "ab");                    // Ctrl-K
    EXPECT_EQ(text("abcd\x02\x15\r"), "d");                         // Ctrl-U
    EXPECT_EQ(text("x\x1b\x7fy\r"), "y");                           // Alt-Backspace
}

TEST_F(line_editor_test, history) {
    EXPECT_EQ(text("first\r"), "first");
    EXPECT_EQ(text("second\r"), "second");
    EXPECT_EQ(text("second\r"), "second");                           // a repeat is kept once
    EXPECT_EQ(text("   \r"), "   ");                                 // blank lines are not kept
    EXPECT_EQ(text("\x1b[A\x1b[A\r"), "first");                      // history: first, second, first
    EXPECT_EQ(text("typed\x10\x10\x10\x10\x0e\x0e\x0e\r"), "typed"); // Ctrl-P past the oldest, Ctrl-N back
    EXPECT_EQ(text("\x1b[A\r"), "typed");
    editor.add_history("added");
    EXPECT_EQ(text("\x1bOA!\r"), "added!");
}

TEST_F(line_editor_test, interrupt_end_and_type_ahead) {
    auto r = line("abc\x03");
    EXPECT_EQ(r.what, outcome::interrupted);
    EXPECT_EQ(line("\x04").what, outcome::end);
    // Two lines typed at once: the second waits for the next read.
    EXPECT_EQ(text("one\rtwo\r"), "one");
    const auto from = term.mark();
    auto next = std::async(std::launch::async, [&] { return editor.read_line("next> "); });
    ASSERT_EQ(next.wait_for(30s), std::future_status::ready);
    EXPECT_EQ(next.get().text, "two");
    EXPECT_TRUE(term.wait_for("next> two", from));
    // A pasted "\r\n" is one Enter.
    EXPECT_EQ(text("crlf\r\n"), "crlf");
    EXPECT_EQ(text("after\r"), "after");
}

TEST_F(line_editor_test, the_terminal_is_raw_only_while_a_line_is_read) {
    termios before{};
    ASSERT_EQ(::tcgetattr(term.terminal(), &before), 0);
    ASSERT_TRUE(before.c_lflag & ICANON);
    EXPECT_EQ(text("x\r"), "x");
    termios after{};
    ASSERT_EQ(::tcgetattr(term.terminal(), &after), 0);
    EXPECT_EQ(after.c_lflag, before.c_lflag);
    EXPECT_EQ(after.c_iflag, before.c_iflag);
}

TEST_F(line_editor_test, completion) {
    const mcpxx_cli::completer complete = [](const std::string& line, std::size_t cursor) {
        // Complete the last word against a few values of style=.
        const auto start = line.rfind(' ', cursor == 0 ? 0 : cursor - 1);
        mcpxx_cli::completion c{.start = start == std::string::npos ? 0 : start + 1};
        const std::string word = line.substr(c.start, cursor - c.start);
        for (const char* v : {"style=formal", "style=friendly", "style=casual", "other="})
            if (std::string(v).rfind(word, 0) == 0) c.candidates.push_back(v);
        c.append_space = !(c.candidates.size() == 1 && c.candidates.front() == "other=");
        return c;
    };
    auto from = term.mark();
    // Unique: inserted with a space after it.
    auto r = line("/p style=c\t\r", complete);
    EXPECT_EQ(r.text, "/p style=casual ");
    // Ambiguous: the common part first, then (nothing more to add) the choices are listed.
    from = term.mark();
    r = line("/p st\t\tf\tr\t\r", complete);
    EXPECT_EQ(r.text, "/p style=friendly ");
    EXPECT_TRUE(term.wait_for("style=formal    style=friendly  style=casual\r\n", from))
        << term.output_since(from);
    // No space after a candidate that wants more ("key="); nothing happens without candidates.
    EXPECT_EQ(line("o\t1\r", complete).text, "other=1");
    EXPECT_EQ(line("zz\t\r", complete).text, "zz");
    // Completing in the middle of a line keeps what follows the cursor.
    EXPECT_EQ(line("a 1\x01\x1b[C\x1b[Cstyle=c\t\r", complete).text, "a style=casual 1");
}

TEST_F(line_editor_test, candidates_with_control_characters_are_left_out) {
    // Candidates come from servers: one that would drive the terminal is neither drawn nor
    // inserted.
    const mcpxx_cli::completer complete = [](const std::string&, std::size_t) {
        return mcpxx_cli::completion{.start = 0,
                                     .candidates = {"x\x1b]0;pwned\x07", "x\r\x1b[2Jfake", "xa", "xb"},
                                     .append_space = false};
    };
    const auto from = term.mark();
    EXPECT_EQ(line("x\t\t\r", complete).text, "x");
    EXPECT_TRUE(term.wait_for("xa  xb\r\n", from)) << term.output_since(from);
    EXPECT_EQ(term.output_since(from).find_first_of("\x07"), std::string::npos) << term.output_since(from);
    EXPECT_EQ(term.output_since(from).find("pwned"), std::string::npos);
    // The only candidate left is inserted.
    const mcpxx_cli::completer one_safe = [](const std::string&, std::size_t) {
        return mcpxx_cli::completion{.start = 0, .candidates = {"y\x1b[2J", "yes"}, .append_space = false};
    };
    EXPECT_EQ(line("y\t\r", one_safe).text, "yes");
}

TEST_F(line_editor_test, output_from_another_thread_goes_above_the_line) {
    const auto from = term.mark();
    auto r = std::async(std::launch::async, [&] { return editor.read_line("> "); });
    ASSERT_TRUE(term.wait_for("> ", from));
    term.type("half a li");
    ASSERT_TRUE(term.wait_for("half a li", from));
    const auto before_log = term.mark();
    editor.print(term.terminal(), "[server] a log message");
    ASSERT_TRUE(term.wait_for("> half a li", before_log));
    const auto drawn = term.output_since(before_log);
    // The line is cleared, the message printed on a line of its own, the line drawn again.
    EXPECT_EQ(drawn.find("\r\033[K[server] a log message"), 0u) << ::testing::PrintToString(drawn);
    EXPECT_LT(drawn.find("a log message"), drawn.find("> half a li"));
    term.type("ne\r");
    ASSERT_EQ(r.wait_for(30s), std::future_status::ready);
    EXPECT_EQ(r.get().text, "half a line");
}

TEST_F(line_editor_test, a_question_from_another_thread_sets_the_line_aside) {
    auto from = term.mark();
    auto r = std::async(std::launch::async, [&] { return editor.read_line("> "); });
    ASSERT_TRUE(term.wait_for("> ", from));
    term.type("partial");
    ASSERT_TRUE(term.wait_for("partial", from));
    from = term.mark();
    auto answer = std::async(std::launch::async, [&] { return editor.ask("Allow? [y/N] "); });
    ASSERT_TRUE(term.wait_for("Allow? [y/N] ", from));
    term.type("yes\r");
    ASSERT_EQ(answer.wait_for(30s), std::future_status::ready);
    EXPECT_EQ(answer.get(), "yes");
    ASSERT_TRUE(term.wait_for("> partial", from)); // back to the line, as it was
    term.type("!\r");
    ASSERT_EQ(r.wait_for(30s), std::future_status::ready);
    EXPECT_EQ(r.get().text, "partial!");
    // Questions are not remembered as history.
    EXPECT_EQ(text("\x1b[A\r"), "partial!");

    // With no line being read, the asking thread reads the answer itself; Ctrl-C gives up.
    from = term.mark();
    answer = std::async(std::launch::async, [&] { return editor.ask("Name: "); });
    ASSERT_TRUE(term.wait_for("Name: ", from));
    term.type("Bob\r");
    ASSERT_EQ(answer.wait_for(30s), std::future_status::ready);
    EXPECT_EQ(answer.get(), "Bob");
    from = term.mark();
    answer = std::async(std::launch::async, [&] { return editor.ask("Name again: "); });
    ASSERT_TRUE(term.wait_for("Name again: ", from));
    term.type("\x03");
    ASSERT_EQ(answer.wait_for(30s), std::future_status::ready);
    EXPECT_EQ(answer.get(), std::nullopt);
}

TEST_F(line_editor_test, a_withdrawn_question_is_taken_away) {
    // Asked while another thread reads a line: the question goes, the line comes back.
    auto from = term.mark();
    auto r = std::async(std::launch::async, [&] { return editor.read_line("> "); });
    ASSERT_TRUE(term.wait_for("> ", from));
    term.type("partial");
    ASSERT_TRUE(term.wait_for("partial", from));
    mcp::cancellation_source withdraw;
    bool interrupted = true;
    from = term.mark();
    auto answer = std::async(std::launch::async,
                             [&] { return editor.ask("Name? ", {}, &interrupted, withdraw.token()); });
    ASSERT_TRUE(term.wait_for("Name? ", from));
    term.type("Bo");
    ASSERT_TRUE(term.wait_for("Bo", from));
    from = term.mark();
    withdraw.cancel("the server withdrew it");
    ASSERT_EQ(answer.wait_for(30s), std::future_status::ready);
    EXPECT_EQ(answer.get(), std::nullopt);
    EXPECT_FALSE(interrupted);
    ASSERT_TRUE(term.wait_for("> partial", from)); // back to the line, as it was
    term.type("!\r");
    ASSERT_EQ(r.wait_for(30s), std::future_status::ready);
    EXPECT_EQ(r.get().text, "partial!");

    // Asked with no line being read: the asking thread stops reading.
    mcp::cancellation_source again;
    from = term.mark();
    answer = std::async(std::launch::async, [&] { return editor.ask("Age? ", {}, nullptr, again.token()); });
    ASSERT_TRUE(term.wait_for("Age? ", from));
    again.cancel();
    ASSERT_EQ(answer.wait_for(30s), std::future_status::ready);
    EXPECT_EQ(answer.get(), std::nullopt);
    // Withdrawn before it is asked: never shown.
    from = term.mark();
    EXPECT_EQ(editor.ask("Never shown? ", {}, nullptr, again.token()), std::nullopt);
    EXPECT_EQ(term.output_since(from).find("Never shown"), std::string::npos);
    // The editor still reads lines.
    EXPECT_EQ(text("after\r"), "after");
}

TEST_F(line_editor_test, long_lines_scroll_and_are_shown_whole_when_entered) {
    const std::string long_line(200, 'x');
    const auto from = term.mark();
    EXPECT_EQ(text(long_line + "END\r"), long_line + "END");
    ASSERT_TRUE(term.wait_for("> " + long_line + "END", from));
    const auto drawn = term.output_since(from);
    // While typing, no redraw writes more than fits on the 80-column line.
    EXPECT_EQ(drawn.find("> " + std::string(79, 'x')), drawn.rfind("> " + long_line + "END")) << "scrolled";
}

} // namespace
