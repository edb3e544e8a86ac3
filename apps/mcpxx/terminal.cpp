#include "terminal.hpp"
#include "elicitation_form.hpp"

#include <mcp/json/json.hpp>
#include <mcp/json/text.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <memory>
#include <poll.h>
#include <termios.h>
#include <type_traits>
#include <unistd.h>
#include <variant>

namespace mcpxx_cli {

style style::for_stream(int fd) {
    const char* no_color = std::getenv("NO_COLOR");
    return {.enabled = ::isatty(fd) == 1 && !(no_color && *no_color)};
}

std::string style::wrap(const char* code, std::string_view s) const {
    if (!enabled) return std::string(s);
    return "\033[" + std::string(code) + "m" + std::string(s) + "\033[0m";
}

namespace {
std::atomic<bool> raw_bodies{false};
} // namespace

void keep_raw_bodies(bool raw) {
    raw_bodies = raw;
}

std::string content_body(std::string_view body) {
    if (raw_bodies.load()) return std::string(body);
    return mcp::printable_lines(body);
}

// ------------------------------------------------------------------ progress

progress_display::progress_display() : tty_(::isatty(2) == 1) {}

progress_display::~progress_display() {
    finish();
}

void progress_display::finish() {
    std::lock_guard lock(mu_);
    if (drawn_) std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    drawn_ = false;
    finished_ = true;
}

void progress_display::update(const mcp::progress_update& p) {
    std::lock_guard lock(mu_);
    if (finished_) return;
    char numbers[64];
    if (p.total)
        std::snprintf(numbers, sizeof numbers, "%g/%g", p.progress, *p.total);
    else
        std::snprintf(numbers, sizeof numbers, "%g", p.progress);
    std::string line;
    if (tty_) {
        constexpr int width = 30;
        std::string bar;
        if (p.total && *p.total > 0) {
            const int filled = static_cast<int>(width * std::min(1.0, p.progress / *p.total));
            bar = "[" + std::string(static_cast<std::size_t>(filled), '#') +
                  std::string(static_cast<std::size_t>(width - filled), ' ') + "] ";
        }
        line = "\r\033[K" + bar + numbers + (p.message ? " " + mcp::printable(*p.message) : "");
        drawn_ = true;
    } else {
        line =
            std::string("progress ") + numbers + (p.message ? " " + mcp::printable(*p.message) : "") + "\n";
    }
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
}

// ------------------------------------------------------------------ asking the user

namespace {

bool yes(const std::optional<std::string>& a) {
    return a && (*a == "y" || *a == "Y" || *a == "yes" || *a == "YES");
}

// One conversation with the user at a time (see terminal_approver).
std::mutex conversation;

} // namespace

bool interrupt_pending() noexcept; // below, with the SIGINT handling

namespace {

std::optional<std::string> read_answer(const std::string& question) {
    std::cerr << question << std::flush;
    std::string answer;
    if (!std::getline(std::cin, answer)) {
        std::cerr << "\n";
        return std::nullopt;
    }
    // Answers read from a pipe are not echoed by a terminal: show them, so that what follows
    // starts on a line of its own and a log of the session reads right.
    if (::isatty(0) != 1) std::cerr << answer << "\n";
    return answer;
}

/// A pipe that a withdrawal writes to, to wake a poll; closed when the last holder goes (the
/// withdrawal's callback may still be running when the question is over).
struct wake_pipe {
    int fds[2] = {-1, -1};
    wake_pipe() {
        if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) fds[0] = fds[1] = -1;
    }
    ~wake_pipe() {
        if (fds[0] >= 0) ::close(fds[0]);
        if (fds[1] >= 0) ::close(fds[1]);
    }
    wake_pipe(const wake_pipe&) = delete;
    wake_pipe& operator=(const wake_pipe&) = delete;
};

/// read_answer on a terminal, given up when `withdrawn` is cancelled. A terminal hands over a
/// line only once it is whole (canonical mode), and stdio keeps none ahead, so waiting with
/// poll() for the line or the withdrawal loses nothing.
std::optional<std::string> read_answer_unless(const std::string& question,
                                              const mcp::cancellation_token& withdrawn) {
    auto wake = std::make_shared<wake_pipe>();
    if (wake->fds[0] < 0) return read_answer(question);
    const auto registration =
        withdrawn.on_cancel([wake] { [[maybe_unused]] auto n = ::write(wake->fds[1], "w", 1); });
    struct unregister {
        const mcp::cancellation_token& token;
        std::uint64_t registration;
        ~unregister() { token.remove_callback(registration); }
    } done{withdrawn, registration};
    std::cerr << question << std::flush;
    for (;;) {
        pollfd fds[2] = {{0, POLLIN, 0}, {wake->fds[0], POLLIN, 0}};
        const int n = ::poll(fds, 2, -1);
        if (n < 0 && errno == EINTR) {
            if (interrupt_pending()) {
                std::cerr << "\n";
                return std::nullopt;
            }
            continue;
        }
        if (withdrawn.is_cancelled() || n < 0) {
            ::tcflush(0, TCIFLUSH); // what was typed of the answer goes with the question
            std::cerr << "\n";
            return std::nullopt;
        }
        if (fds[0].revents != 0) break;
    }
    std::string answer;
    if (!std::getline(std::cin, answer)) {
        std::cerr << "\n";
        return std::nullopt;
    }
    return answer;
}

} // namespace

user_io user_io::standard() {
    const bool terminal = ::isatty(0) == 1;
    user_io io{.say = [](const std::string& text) { std::cerr << text << std::flush; },
               .ask = read_answer,
               .terminal = terminal,
               .interrupted = [] { return interrupt_pending(); }};
    if (terminal) io.ask_unless_withdrawn = read_answer_unless;
    return io;
}

bool terminal_approver::approve(const mcp::host::approval_request& r) {
    if (!io_.terminal)
        throw mcp::host::call_denied(
            "it needs your approval, and mcpxx asks only on a terminal (standard input is not one): pass "
            "--yes to run tool calls without asking (or --trust SERVER for a trusted server's read-only "
            "tools)");
    const auto s = style::for_stream(2);
    std::string text =
        s.bold("Server \"" + r.server + "\" wants to run the tool \"" + mcp::printable(r.tool) + "\"") + "\n";
    if (r.definition && r.definition->description)
        text += "  " + mcp::printable_lines(*r.definition->description) + "\n";
    if (!r.definition) text += "  " + s.yellow("(the server did not list this tool)") + "\n";
    // JSON escapes C0 controls but not C1 ones or bidi overrides.
    text += "  arguments: " + mcp::printable_lines(mcp::to_json(mcp::json::value(r.arguments))) + "\n";
    if (r.definition && r.definition->annotations) {
        const auto& a = *r.definition->annotations;
        if (a.read_only_hint.value_or(false))
            text += std::string("  says it is read-only") +
                    (r.server_trusted ? "" : " (server not trusted)") + "\n";
        else if (a.destructive_hint.value_or(true))
            text += "  " + s.yellow("may modify or delete things") + "\n";
    }
    std::lock_guard lock(conversation);
    io_.say(text);
    const auto answer = io_.ask("Allow? [y/N] ");
    if (!answer && io_.interrupted && io_.interrupted())
        throw user_interrupted("interrupted while asking to run the tool \"" + mcp::printable(r.tool) + "\"");
    return yes(answer);
}

namespace {

/// Long texts are cut when shown (the model still gets all of it); what is shown is escaped (a
/// server wrote it).
constexpr std::size_t shown_text_limit = 2000;

std::string shown(std::string_view text) {
    if (text.size() <= shown_text_limit) return mcp::printable_lines(text);
    return mcp::printable_lines(mcp::utf8_prefix(text, shown_text_limit)) + "... (" +
           std::to_string(text.size() - shown_text_limit) + " more characters)";
}

/// One line (or paragraph) per block, as the user should see it.
std::string describe(const mcp::sampling_content& block) {
    return std::visit(
        [](const auto& b) -> std::string {
            using T = std::decay_t<decltype(b)>;
            if constexpr (std::is_same_v<T, mcp::text_content>) {
                return shown(b.text);
            } else if constexpr (std::is_same_v<T, mcp::image_content>) {
                return "[image " + mcp::printable(b.mime_type) + ", " +
                       std::to_string(b.data.size() * 3 / 4) + " bytes]";
            } else if constexpr (std::is_same_v<T, mcp::audio_content>) {
                return "[audio " + mcp::printable(b.mime_type) + ", " +
                       std::to_string(b.data.size() * 3 / 4) + " bytes]";
            } else if constexpr (std::is_same_v<T, mcp::tool_use_content>) {
                return "[calls tool " + mcp::printable(b.name) + " with " +
                       shown(mcp::to_json(mcp::json::value(b.input))) + "]";
            } else {
                std::string text = "[result of tool use " + mcp::printable(b.tool_use_id) +
                                   (b.is_error.value_or(false) ? ", an error" : "") + "]";
                for (const auto& c : b.content)
                    if (const auto* t = std::get_if<mcp::text_content>(&c)) text += " " + shown(t->text);
                return text;
            }
        },
        block);
}

/// The text block the user may rewrite: the last one of the last user message.
mcp::text_content* editable_text(mcp::create_message_request& r) {
    for (auto m = r.messages.rbegin(); m != r.messages.rend(); ++m) {
        if (m->role != mcp::role::user) continue;
        for (auto b = m->content.rbegin(); b != m->content.rend(); ++b)
            if (auto* t = std::get_if<mcp::text_content>(&*b)) return t;
        return nullptr;
    }
    return nullptr;
}

} // namespace

std::optional<mcp::create_message_request>
terminal_sampling_reviewer::review_request(const std::string& server, mcp::create_message_request r) {
    const auto s = style::for_stream(2);
    std::string text = s.bold("Server \"" + server + "\" wants to ask the model:") + "\n";
    if (r.system_prompt) text += "  " + s.dim("system: ") + shown(*r.system_prompt) + "\n";
    for (const auto& m : r.messages)
        for (const auto& b : m.content)
            text += "  " + s.dim(std::string(mcp::to_string(m.role)) + ": ") + describe(b) + "\n";
    text += "  " + s.dim("at most " + std::to_string(r.max_tokens) + " tokens");
    if (r.model_preferences && !r.model_preferences->hints.empty()) {
        text += s.dim(", model hints:");
        for (const auto& h : r.model_preferences->hints) text += " " + mcp::printable(h.name.value_or("?"));
    }
    text += "\n";
    if (!r.tools.empty()) {
        text += "  " + s.yellow("the model may call tools:");
        for (const auto& t : r.tools) text += " " + mcp::printable(t.name);
        text += "\n";
    }
    std::lock_guard lock(conversation);
    io_.say(text);
    auto* editable = editable_text(r);
    const auto choice = io_.ask(
        editable ? "Send it? [y]es / [e]dit the last message / anything else refuses: " : "Send it? [y/N] ");
    if (yes(choice)) return r;
    if (!editable || !choice || (*choice != "e" && *choice != "edit")) return std::nullopt;
    const auto replacement = io_.ask("New text (empty keeps it): ");
    if (!replacement) return std::nullopt;
    if (!replacement->empty()) editable->text = *replacement;
    return r;
}

bool terminal_sampling_reviewer::review_result(const std::string& server, const mcp::create_message_request&,
                                               const mcp::create_message_result& result) {
    const auto s = style::for_stream(2);
    std::string text = s.bold("The model (" + mcp::printable(result.model) + ") answered:") + "\n";
    for (const auto& b : result.content) text += "  " + describe(b) + "\n";
    std::lock_guard lock(conversation);
    io_.say(text);
    return yes(io_.ask("Give this answer to \"" + server + "\"? [y/N] "));
}

mcp::elicit_result terminal_elicitation::elicit(const std::string& server, const mcp::elicit_request& r,
                                                const mcp::host::request_control& control) {
    const auto s = style::for_stream(2);
    const auto& withdrawn = control.cancellation;
    // Once the server has withdrawn its request, nothing more is asked (its answer is dropped).
    const auto ask = [this, &withdrawn](const std::string& q) -> std::optional<std::string> {
        if (withdrawn.is_cancelled()) return std::nullopt;
        if (io_.ask_unless_withdrawn) return io_.ask_unless_withdrawn(q, withdrawn);
        return io_.ask(q);
    };
    const auto cancelled = [&] {
        if (withdrawn.is_cancelled())
            io_.say(s.dim("(server \"" + server + "\" withdrew its question)") + "\n");
        return mcp::elicit_result{.action = mcp::elicit_action::cancel};
    };
    std::lock_guard lock(conversation);
    if (withdrawn.is_cancelled()) return cancelled(); // while another conversation went on
    io_.say(s.bold("Server \"" + server + "\" asks: ") + mcp::printable_lines(r.message) + "\n");
    if (r.mode == mcp::elicitation_mode::url) {
        io_.say("  open: " + mcp::printable(r.url.value_or("")) + "\n");
        const auto done = ask("Done? [y/N] ");
        if (withdrawn.is_cancelled()) return cancelled();
        return {.action = yes(done) ? mcp::elicit_action::accept : mcp::elicit_action::decline};
    }
    const auto choice = ask("Answer? [y]es / [n]o (decline) / anything else cancels: ");
    if (!choice) return cancelled();
    if (*choice == "n" || *choice == "no") return {.action = mcp::elicit_action::decline};
    if (!yes(choice)) return {.action = mcp::elicit_action::cancel};
    // Each answer is converted to its field's type and checked before the next question; the
    // end of input cancels (see elicitation_form.hpp).
    auto content = fill_form(r.requested_schema, ask, [this](const std::string& text) { io_.say(text); });
    if (!content) return cancelled();
    return {.action = mcp::elicit_action::accept, .content = std::move(*content)};
}

// ------------------------------------------------------------------ Ctrl-C

namespace {

int signal_pipe[2] = {-1, -1};
std::atomic<int> interrupts{0};
// Which command a SIGINT hit (rearm() starts the next): the watcher thread may see it only
// after a shell has moved on, and must not cancel the next command then.
std::atomic<unsigned> generation{0};
constexpr char quit_byte = '\xff'; // never a generation (those are taken modulo 255)

char generation_byte(unsigned g) {
    return static_cast<char>(g % 255);
}

extern "C" void on_sigint(int) {
    // Only async-signal-safe work here: count, and wake the watcher thread.
    if (interrupts.fetch_add(1) >= 1) ::_exit(130);
    const char c = generation_byte(generation.load());
    [[maybe_unused]] auto n = ::write(signal_pipe[1], &c, 1);
}

} // namespace

interrupt_guard::interrupt_guard(mcp::cancellation_source source) : source_(std::move(source)) {
    if (::pipe2(signal_pipe, O_CLOEXEC) != 0) return;
    watcher_ = std::thread([this] {
        char c;
        for (;;) {
            const auto n = ::read(signal_pipe[0], &c, 1);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0 || c == quit_byte) return;
            std::lock_guard lock(mu_);
            if (c != generation_byte(generation.load())) continue; // a command that is over
            std::fputs("\ninterrupted\n", stderr);
            source_.cancel("interrupted by the user");
        }
    });
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
}

interrupt_guard::~interrupt_guard() {
    struct sigaction sa {};
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    if (watcher_.joinable()) {
        [[maybe_unused]] auto n = ::write(signal_pipe[1], &quit_byte, 1);
        watcher_.join();
    }
    ::close(signal_pipe[0]);
    ::close(signal_pipe[1]);
}

bool interrupt_guard::interrupted() const noexcept {
    return interrupts.load() > 0;
}

bool interrupt_pending() noexcept {
    return interrupts.load() > 0;
}

void interrupt_guard::rearm(mcp::cancellation_source source) {
    std::lock_guard lock(mu_);
    source_ = std::move(source);
    generation.fetch_add(1);
    interrupts.store(0);
}

} // namespace mcpxx_cli
