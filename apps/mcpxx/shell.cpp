// The shell's terminal, its dispatch of a line, and the builtins that only look things up.
#include "shell.hpp"
#include "catalogue_output.hpp"
#include "host_output.hpp"
#include "read_file.hpp"

#include <mcp/json/text.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace mcpxx_cli {

// ------------------------------------------------------------------ terminal

shell_terminal::shell_terminal() {
    // The line is drawn on stderr (as shells do), so that stdout keeps only what commands print.
    if (line_editor::usable(0, 2))
        editor_ = std::make_unique<line_editor>(0, 2);
    else
        prompt_plain_ = ::isatty(0) == 1 && ::isatty(2) == 1;
}

std::optional<std::string> shell_terminal::read_command(const completer& complete) {
    std::cout.flush();
    std::fflush(stdout);
    if (editor_) {
        const std::string prompt = style::for_stream(2).bold("mcpxx> ");
        const auto r = editor_->read_line(prompt, complete);
        if (r.what == line_editor::outcome::end) return std::nullopt;
        return r.text; // empty after Ctrl-C
    }
    if (prompt_plain_) std::cerr << "mcpxx> " << std::flush;
    std::string line;
    if (std::getline(std::cin, line)) return line;
    return std::nullopt;
}

void shell_terminal::notify(const std::string& text) {
    if (editor_) {
        editor_->print(2, text);
        return;
    }
    // One write, so that a message from another thread never lands inside it.
    std::lock_guard lock(plain_mu_);
    std::cerr << (text.empty() || text.back() != '\n' ? text + "\n" : text) << std::flush;
}

std::optional<std::string> shell_terminal::ask(const std::string& question, const completer& complete) {
    if (editor_) return editor_->ask(question, complete);
    return user_io::standard().ask(question);
}

user_io shell_terminal::io() {
    if (!editor_) return user_io::standard();
    auto interrupted = std::make_shared<std::atomic<bool>>(false);
    return {.say = [this](const std::string& text) { editor_->print(2, text); },
            .ask =
                [this, interrupted](const std::string& question) {
                    bool ctrl_c = false;
                    auto answer = editor_->ask(question, {}, &ctrl_c);
                    interrupted->store(ctrl_c);
                    return answer;
                },
            .ask_unless_withdrawn =
                [this, interrupted](const std::string& question, const mcp::cancellation_token& withdrawn) {
                    bool ctrl_c = false;
                    auto answer = editor_->ask(question, {}, &ctrl_c, withdrawn);
                    interrupted->store(ctrl_c);
                    return answer;
                },
            .terminal = true,
            .interrupted = [interrupted] { return interrupted->load(); }};
}

// ------------------------------------------------------------------ dispatch

const std::vector<shell::builtin>& shell::builtins() {
    static const std::vector<builtin> list{
        {"help", "help [COMMAND]", "List the commands, or explain one", &shell::cmd_help},
        {"servers", "servers", "Every server: state, protocol revision, what it offers, or its error",
         &shell::cmd_servers},
        {"tools", "tools [SERVER|FILTER]", "The tools of every server, of one, or whose names contain FILTER",
         &shell::cmd_tools},
        {"resources", "resources [SERVER]", "Resources and resource templates", &shell::cmd_resources},
        {"prompts", "prompts [SERVER]", "Prompts; run one with /SERVER__PROMPT ARG=VALUE ...",
         &shell::cmd_prompts},
        {"call", "call TOOL [KEY=VALUE ...|JSON]",
         "Call a tool (asks first unless allowed by policy or --yes; a script is not asked: the call is "
         "denied); Ctrl-C cancels it",
         &shell::cmd_call},
        {"read", "read SERVER URI", "Read a resource and print it", &shell::cmd_read},
        {"attach", "attach SERVER URI",
         "Read a resource and keep it as context: every prompt then shows it after its messages, as the "
         "embedded resource a model would get; the shell subscribes to it and says when it changes (it is "
         "read again when next used)",
         &shell::cmd_attach},
        {"attachments", "attachments", "The attached resources (\"changed\": read again when next used)",
         &shell::cmd_attachments},
        {"detach", "detach [URI]", "Forget one attached resource (and unsubscribe), or all",
         &shell::cmd_detach},
        {"ping", "ping [SERVER]", "Round trip to every ready server, or one", &shell::cmd_ping},
        {"roots", "roots [add DIR | remove DIR]",
         "The roots offered to servers (the current directory, the --root directories instead, or none "
         "with --no-roots; servers may take them as the directories they may use); change them",
         &shell::cmd_roots},
        {"quit", "quit", "Leave (also exit [CODE], Ctrl-D)", nullptr},
        {"exit", "exit [CODE]", "Leave with CODE (default 0)", nullptr},
    };
    return list;
}

shell::shell(host_session& session, std::shared_ptr<shell_terminal> terminal,
             std::shared_ptr<attachment_list> attachments)
    : session_(session), terminal_(std::move(terminal)), attachments_(std::move(attachments)),
      roots_(session.root_paths()) {}

bool shell::execute(const std::string& line) {
    std::vector<shell_word> words;
    try {
        words = split_words(line);
    } catch (const input_error& e) {
        print_error(e.what());
        status_ = exit_usage;
        return true;
    }
    if (words.empty()) return true;
    const std::string& name = words.front().text;
    try {
        if (name == "quit" || name == "exit") {
            status_ = exit_ok;
            if (words.size() > 1) {
                std::size_t used = 0;
                try {
                    status_ = std::stoi(words[1].text, &used);
                } catch (const std::exception&) {
                    used = 0;
                }
                if (used != words[1].text.size() || status_ < 0 || status_ > 255) {
                    print_error("exit wants a number from 0 to 255, got \"" + words[1].text + "\"");
                    status_ = exit_usage;
                    return true;
                }
            }
            return false;
        }
        if (name.size() > 1 && name.front() == '/') {
            status_ = run_prompt(words);
        } else {
            const builtin* b = nullptr;
            for (const auto& candidate : builtins())
                if (name == candidate.name) b = &candidate;
            if (!b) {
                print_error("unknown command \"" + name +
                            "\" (help lists the commands; prompts start with /)");
                status_ = exit_usage;
            } else {
                status_ = (this->*(b->run))(words, line);
            }
        }
    } catch (const input_error& e) {
        print_error(e.what());
        status_ = exit_usage;
    } catch (const std::exception& e) {
        status_ = session_.report_failure(e);
        if (status_ == exit_interrupted) terminal_->notify("cancelled");
    }
    std::cout.flush();
    return true;
}

// ------------------------------------------------------------------ helpers

std::vector<std::string> shell::ready_servers() const {
    std::vector<std::string> out;
    for (const auto& s : session_.servers().servers())
        if (s.state == mcp::host::server_state::ready) out.push_back(s.name);
    return out;
}

int shell::servers_for(const std::string& name, std::vector<std::string>& out) {
    out.clear();
    if (name.empty()) {
        out = ready_servers();
        return exit_ok;
    }
    for (const auto& s : session_.servers().servers()) {
        if (s.name != name) continue;
        if (s.state == mcp::host::server_state::ready) {
            out.push_back(name);
            return exit_ok;
        }
        print_error(mcp::host::not_ready_reason(name, s.state, s.error));
        return exit_unavailable;
    }
    std::string known;
    for (const auto& s : session_.servers().servers()) known += (known.empty() ? "" : ", ") + s.name;
    print_error("no server named \"" + name + "\" (servers: " + known + ")");
    return exit_usage;
}

mcp::call_options shell::call_options(const std::string& server) {
    return {.timeout = session_.timeout_for(server), .cancel = session_.cancel_token()};
}

// ------------------------------------------------------------------ builtins that look things up

int shell::cmd_help(const std::vector<shell_word>& w, const std::string&) {
    const auto st = style::for_stream(1);
    if (w.size() > 1) {
        for (const auto& b : builtins())
            if (w[1].text == b.name) {
                std::cout << st.bold(b.usage) << "\n  " << b.help << "\n";
                return exit_ok;
            }
        print_error("no command \"" + w[1].text + "\"");
        return exit_usage;
    }
    std::size_t width = 0;
    for (const auto& b : builtins()) width = std::max(width, std::string_view(b.usage).size() + 2);
    for (const auto& b : builtins()) std::cout << st.bold(pad(b.usage, width)) << b.help << "\n";
    std::cout
        << st.bold(pad("/PROMPT [ARG=VALUE ...]", width))
        << "Get a prompt (/SERVER__PROMPT, or /PROMPT when only one server has it); missing required "
           "arguments are asked for\n"
        << "Tab completes commands, tools, prompts, resource URIs (listed ones, and resource templates' "
           "variables through the server's completion), argument values, and the answer when a missing "
           "prompt argument is asked for. Values with blanks go in quotes: text=\"two words\".\n";
    return exit_ok;
}

int shell::cmd_servers(const std::vector<shell_word>&, const std::string&) {
    const auto statuses = session_.servers().servers();
    const auto& found = session_.found();
    server_columns c;
    for (const auto& s : statuses) c.name = std::max(c.name, s.name.size() + 2);
    for (const auto& d : found.disabled) c.name = std::max(c.name, d.name.size() + 2);
    for (const auto& a : found.not_allowed) c.name = std::max(c.name, a.name.size() + 2);
    if (!found.not_allowed.empty()) c.state = server_columns::state_with_not_allowed;
    const auto st = style::for_stream(1);
    bool all_ready = true;
    for (const auto& s : statuses) {
        std::cout << server_line(s, c, st) << "\n";
        all_ready &= s.state == mcp::host::server_state::ready;
    }
    // The servers that were not started, as `mcpxx servers` lists them.
    for (const auto& d : found.disabled) std::cout << disabled_entry_line(d, c, st) << "\n";
    for (const auto& a : found.not_allowed) std::cout << not_allowed_entry_line(a, c, st) << "\n";
    return all_ready ? exit_ok : exit_unavailable;
}

int shell::cmd_tools(const std::vector<shell_word>& w, const std::string&) {
    auto tools = session_.servers().tools();
    if (w.size() > 1) {
        // A server's name shows its tools (as `mcpxx tools SERVER` does); anything else filters.
        const std::string& filter = w[1].text;
        bool server = false;
        for (const auto& s : session_.servers().servers()) server |= s.name == filter;
        std::erase_if(tools, [&](const auto& t) {
            return server ? t.server != filter : t.name.find(filter) == std::string::npos;
        });
        if (tools.empty()) {
            terminal_->notify(server ? "server \"" + filter + "\" has no tools (servers shows its state)"
                                     : "no tool name contains \"" + filter + "\"");
            return exit_negative;
        }
    }
    print_tools(std::cout, tools, style::for_stream(1));
    return exit_ok;
}

int shell::cmd_resources(const std::vector<shell_word>& w, const std::string&) {
    std::vector<std::string> servers;
    if (int rc = servers_for(w.size() > 1 ? w[1].text : "", servers); rc != exit_ok) return rc;
    for (const auto& s : servers) print_resources(std::cout, session_.servers(), s, style::for_stream(1));
    return exit_ok;
}

int shell::cmd_prompts(const std::vector<shell_word>& w, const std::string&) {
    std::vector<std::string> servers;
    if (int rc = servers_for(w.size() > 1 ? w[1].text : "", servers); rc != exit_ok) return rc;
    for (const auto& s : servers) print_prompts(std::cout, session_.servers(), s, style::for_stream(1));
    return exit_ok;
}

int shell::cmd_ping(const std::vector<shell_word>& w, const std::string&) {
    std::vector<std::string> servers;
    if (int rc = servers_for(w.size() > 1 ? w[1].text : "", servers); rc != exit_ok) return rc;
    if (servers.empty()) {
        print_error("no server is ready");
        return exit_unavailable;
    }
    const auto st = style::for_stream(1);
    int rc = exit_ok;
    for (const auto& s : servers) {
        const auto t0 = std::chrono::steady_clock::now();
        try {
            session_.servers().client(s)->ping(call_options(s));
            char ms[32];
            std::snprintf(
                ms, sizeof ms, "%.2f ms",
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            std::cout << s << ": " << st.green("ok") << " " << ms << "\n";
        } catch (const std::exception& e) {
            if (session_.interrupted()) throw;
            std::cout << s << ": " << st.red("failed") << " " << mcp::printable(e.what()) << "\n";
            rc = exit_negative;
        }
    }
    return rc;
}

int shell::cmd_roots(const std::vector<shell_word>& w, const std::string&) {
    auto& m = session_.servers();
    if (w.size() > 1) {
        const std::string& op = w[1].text;
        if ((op != "add" && op != "remove") || w.size() != 3)
            throw input_error("usage: roots [add DIR | remove DIR]");
        const auto canonical = [](const std::filesystem::path& p) {
            std::error_code ec;
            auto c = std::filesystem::weakly_canonical(std::filesystem::absolute(p), ec);
            return ec ? std::filesystem::absolute(p) : c;
        };
        const auto dir = canonical(w[2].text);
        const auto it =
            std::find_if(roots_.begin(), roots_.end(), [&](const auto& r) { return canonical(r) == dir; });
        if (op == "add") {
            if (!std::filesystem::is_directory(dir)) throw input_error("not a directory: " + dir.string());
            if (it == roots_.end()) roots_.push_back(dir);
        } else {
            if (it == roots_.end()) throw input_error("not a root: " + dir.string());
            roots_.erase(it);
        }
        m.set_roots(roots_); // servers that asked to hear of it get roots/list_changed
    }
    const auto roots = m.roots();
    if (roots.empty()) terminal_->notify("no roots are offered to servers (roots add DIR offers one)");
    for (const auto& r : roots) std::cout << r.uri << (r.name ? "  " + *r.name : "") << "\n";
    return exit_ok;
}

} // namespace mcpxx_cli
