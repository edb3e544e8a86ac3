// The terminal side of the host commands: colour, the progress bar, asking the user (tool
// approval, elicitation), and Ctrl-C.
#pragma once

#include <mcp/host/approval.hpp>
#include <mcp/host/providers.hpp>
#include <mcp/session/cancellation.hpp>
#include <mcp/session/session.hpp>

#include <atomic>
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

/// Draws notifications/progress on stderr: a bar redrawn in place on a terminal, plain lines
/// otherwise (logs stay readable).
class progress_display {
public:
    progress_display();
    ~progress_display(); ///< clears the bar
    void update(const mcp::progress_update& p);

private:
    bool tty_;
    bool drawn_ = false;
};

/// Asks on stderr and reads the answer from stdin; end of input means no.
class terminal_approver : public mcp::host::approver {
public:
    bool approve(const mcp::host::approval_request& request) override;
};

/// Asks for each field of a form on stderr, reads answers from stdin.
class terminal_elicitation : public mcp::host::elicitation_responder {
public:
    mcp::elicit_result elicit(const std::string& server, const mcp::elicit_request& request) override;
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

private:
    mcp::cancellation_source source_;
    std::thread watcher_;
};

} // namespace mcpxx_cli
