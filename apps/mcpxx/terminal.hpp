// The terminal side of the host commands: colour, the progress bar, asking the user (tool
// approval, sampling review, elicitation), and Ctrl-C.
//
// Text from servers never drives the user's terminal. A server chooses the bytes of its tool
// names, descriptions and results, its resources, prompts, error messages, log notifications,
// elicitation forms, sampling requests and the lines on its stderr; shown raw, they could clear
// the screen, set the window title, move the cursor, or rewrite a line with a CR to fake a
// message of mcpxx. So every piece of server text is escaped (mcp/json/text.hpp) before mcpxx
// shows it, and before wrapping it in style, which must keep its own escapes:
//   - a one-line field (a name, a URI, a stderr or log line, an error in a listing):
//     mcp::printable, which also keeps it on its line;
//   - a message to the user that may span lines (a description, an error message, an
//     elicitation or sampling text, the arguments in an approval prompt): mcp::printable_lines;
//   - a content body (a tool's result, a resource's text, a prompt's messages): content_body,
//     mcp::printable_lines wherever it goes - a pipe is often a terminal in disguise
//     (`mcpxx call ... | tee`, `| less -R`) - and the exact bytes only with --raw
//     (keep_raw_bodies), so that `mcpxx read --raw SERVER URI > copy` copies faithfully.
// --json output is JSON in which every C0 and C1 control (and DEL) is a \uXXXX escape
// (print_json): the same JSON value, with nothing a terminal acts on. Text mcpxx writes itself
// needs nothing.
#pragma once

#include <mcp/host/approval.hpp>
#include <mcp/host/providers.hpp>
#include <mcp/host/sampling_review.hpp>
#include <mcp/jsonrpc/cancellation.hpp>
#include <mcp/session/session.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

namespace mcpxx_cli {

/// Colour only on a terminal, and never with NO_COLOR set (https://no-color.org).
struct style {
    bool enabled = false;
    static style for_stream(int fd);
    std::string green(std::string_view s) const { return wrap("32", s); }
    std::string red(std::string_view s) const { return wrap("31", s); }
    std::string yellow(std::string_view s) const { return wrap("33", s); }
    std::string bold(std::string_view s) const { return wrap("1", s); }
    std::string dim(std::string_view s) const { return wrap("2", s); }

private:
    std::string wrap(const char* code, std::string_view s) const;
};

/// A content body from a server as written to stdout: mcp::printable_lines, or the exact bytes
/// after keep_raw_bodies(true) (see the top of this file).
std::string content_body(std::string_view body);
/// --raw: content bodies go out as the exact bytes the server sent. Process-wide, set once
/// while the command line is read.
void keep_raw_bodies(bool raw);

/// Draws notifications/progress on stderr: a bar redrawn in place on a terminal, plain lines
/// otherwise (logs stay readable). Thread-safe: notifications come on the client's threads.
class progress_display {
public:
    progress_display();
    ~progress_display(); ///< finish()
    void update(const mcp::progress_update& p);
    /// Clear the bar and draw nothing more: a notification that comes after the call's result
    /// must not draw over what follows it.
    void finish();

private:
    std::mutex mu_;
    bool tty_;
    bool drawn_ = false;
    bool finished_ = false;
};

/// The progress of one call: on_progress() is the call's callback, and the bar is gone when the
/// scope ends (or at finish()), before the result is printed - whoever still holds a copy of
/// the callback (the client may, after the call has returned).
class call_progress {
public:
    std::function<void(const mcp::progress_update&)> on_progress() const {
        return [display = display_](const mcp::progress_update& p) { display->update(p); };
    }
    void finish() { display_->finish(); }
    ~call_progress() { finish(); }

private:
    std::shared_ptr<progress_display> display_ = std::make_shared<progress_display>();
};

/// How the approver and the elicitation responder talk to the user. `say` shows text (whole
/// lines); `ask` shows a question and returns the line typed, or nullopt at end of input (or
/// when the user gave up, e.g. Ctrl-C at the shell's line editor).
struct user_io {
    std::function<void(const std::string& text)> say;
    std::function<std::optional<std::string>(const std::string& question)> ask;
    /// `ask`, but the question is taken away (nullopt) when `withdrawn` is cancelled: for a
    /// server that withdraws what it asked. Unset where reading cannot be given up (answers
    /// from a pipe): `ask` is used then.
    std::function<std::optional<std::string>(const std::string& question,
                                             const mcp::cancellation_token& withdrawn)>
        ask_unless_withdrawn;
    /// Whether the answers come from a person at a terminal (false: from a pipe or a file,
    /// where the next line may be anything - the next command of a script).
    bool terminal = true;
    /// Whether the last ask() gave nothing because the user pressed Ctrl-C (unset: never).
    std::function<bool()> interrupted;
    /// Text on stderr, answers from stdin (one command, or a shell reading a pipe).
    static user_io standard();
};

/// Ctrl-C at a question that cannot go on without an answer (tool approval): the command is
/// interrupted (exit 130), not denied.
class user_interrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Asks on the terminal; end of input means no, Ctrl-C throws user_interrupted. Without a
/// terminal (stdin a pipe or a file: a script) nothing is read - the call is denied, and the
/// message says to pass --yes - so that a script's next line is never taken for an answer. One
/// conversation (approval or form) at a time, so that two servers asking at once never
/// interleave their questions.
class terminal_approver : public mcp::host::approver {
public:
    explicit terminal_approver(user_io io = user_io::standard()) : io_(std::move(io)) {}
    bool approve(const mcp::host::approval_request& request) override;

private:
    user_io io_;
};

/// Shows what a server wants the model to see (system prompt, messages, limits, tools offered)
/// and asks to send it as it is, edit the last user message first, or refuse; then shows the
/// model's answer and asks whether the server may have it. End of input refuses.
class terminal_sampling_reviewer : public mcp::host::sampling_reviewer {
public:
    explicit terminal_sampling_reviewer(user_io io = user_io::standard()) : io_(std::move(io)) {}
    std::optional<mcp::create_message_request> review_request(const std::string& server,
                                                              mcp::create_message_request request) override;
    bool review_result(const std::string& server, const mcp::create_message_request& request,
                       const mcp::create_message_result& result) override;

private:
    user_io io_;
};

/// Asks for each field of a form on the terminal, marks the required ones, and asks again with
/// the reason when an answer does not fit the field (see elicitation_form.hpp); the end of input
/// cancels. A URL-mode request shows the URL and asks whether the user is done. A server that
/// withdraws its request (notifications/cancelled) takes the question away, where the terminal
/// allows it (user_io::ask_unless_withdrawn), and no further question is asked.
class terminal_elicitation : public mcp::host::elicitation_responder {
public:
    explicit terminal_elicitation(user_io io = user_io::standard()) : io_(std::move(io)) {}
    mcp::elicit_result elicit(const std::string& server, const mcp::elicit_request& request,
                              const mcp::host::request_control& control) override;

private:
    user_io io_;
};

/// While alive, SIGINT cancels `source` (the call in flight sends notifications/cancelled) and
/// interrupted() becomes true; a second SIGINT exits at once with 130.
class interrupt_guard {
public:
    explicit interrupt_guard(mcp::cancellation_source source);
    ~interrupt_guard();
    interrupt_guard(const interrupt_guard&) = delete;
    interrupt_guard& operator=(const interrupt_guard&) = delete;
    bool interrupted() const noexcept;
    /// For the next command of a shell: SIGINT now cancels `source`, and interrupted() is false
    /// again (so that only a second Ctrl-C during one command exits).
    void rearm(mcp::cancellation_source source);

private:
    mutable std::mutex mu_;
    mcp::cancellation_source source_;
    std::thread watcher_;
};

} // namespace mcpxx_cli
