// `mcpxx shell`: an interactive session over every configured server. The pieces:
//   shell_terminal  the terminal: the line editor when stdin and stderr are a terminal, plain
//                   lines from stdin otherwise; messages from other threads; questions
//   shell           one line at a time: builtins (shell.cpp), calls, reads and prompts
//                   (shell_calls.cpp), Tab completion (shell_completion.cpp)
// shell_command.cpp starts the servers and runs the loop.
#pragma once

#include "host_session.hpp"
#include "line_editor.hpp"
#include "shell_words.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcpxx_cli {

/// The terminal the shell talks through. Shared (by pointer) with the callbacks of the server
/// manager, which print from their own threads.
class shell_terminal {
public:
    shell_terminal();

    /// Whether lines are edited (stdin and stderr are a terminal that understands escapes).
    bool interactive() const { return editor_ != nullptr; }
    /// The next command; nullopt at end of input. An abandoned line (Ctrl-C) is an empty one.
    std::optional<std::string> read_command(const completer& complete);
    /// A message from any thread, on stderr, above the line being edited.
    void notify(const std::string& text);
    /// Ask from any thread (approval, elicitation, missing prompt arguments); Tab offers what
    /// `complete` gives, when lines are edited.
    std::optional<std::string> ask(const std::string& question, const completer& complete = {});
    /// What the approver and the elicitation responder use.
    user_io io();

private:
    std::unique_ptr<line_editor> editor_;
    bool prompt_plain_ = false; ///< stdin is a terminal without line editing: show a prompt anyway
    std::mutex plain_mu_;       ///< one message at a time on a plain stderr
};

/// A resource attached to the session: the context a host gives its model with each prompt.
struct attachment {
    std::string server;
    std::string uri;
    std::vector<mcp::resource_contents> contents;
    bool subscribed = false; ///< at its server, so that changes are announced
    bool changed = false;    ///< announced changed since it was read: read again when used
};

/// The attached resources, shared with the manager's callbacks (a server announcing that one
/// changed). Thread-safe.
class attachment_list {
public:
    /// Replace or add.
    void put(attachment a);
    /// Remove those of `uri` (all when empty); returns what was removed.
    std::vector<attachment> remove(const std::string& uri);
    std::vector<attachment> all() const;
    /// Mark `uri` of `server` changed; false when it is not attached.
    bool mark_changed(const std::string& server, const std::string& uri);

private:
    mutable std::mutex mu_;
    std::vector<attachment> items_;
};

class shell {
public:
    shell(host_session& session, std::shared_ptr<shell_terminal> terminal,
          std::shared_ptr<attachment_list> attachments = std::make_shared<attachment_list>());

    /// Run one line. False when the shell is to end (quit, exit). Ctrl-C cancels what the
    /// session's cancel_token() was when it started (see host_session::begin_command).
    bool execute(const std::string& line);
    /// The exit status of the last command (a blank line changes nothing), or the one `exit N`
    /// asked for.
    int status() const { return status_; }
    /// What Tab offers at `cursor`.
    completion complete(const std::string& line, std::size_t cursor);

    /// The builtin commands, as `help` lists them.
    struct builtin {
        const char* name;
        const char* usage;
        const char* help;
        int (shell::*run)(const std::vector<shell_word>& words, const std::string& line);
    };
    static const std::vector<builtin>& builtins();

private:
    // shell.cpp
    int cmd_help(const std::vector<shell_word>& w, const std::string& line);
    int cmd_servers(const std::vector<shell_word>& w, const std::string& line);
    int cmd_tools(const std::vector<shell_word>& w, const std::string& line);
    int cmd_resources(const std::vector<shell_word>& w, const std::string& line);
    int cmd_prompts(const std::vector<shell_word>& w, const std::string& line);
    int cmd_ping(const std::vector<shell_word>& w, const std::string& line);
    int cmd_roots(const std::vector<shell_word>& w, const std::string& line);
    // shell_calls.cpp
    int cmd_call(const std::vector<shell_word>& w, const std::string& line);
    int cmd_read(const std::vector<shell_word>& w, const std::string& line);
    int cmd_attach(const std::vector<shell_word>& w, const std::string& line);
    int cmd_attachments(const std::vector<shell_word>& w, const std::string& line);
    int cmd_detach(const std::vector<shell_word>& w, const std::string& line);
    int run_prompt(const std::vector<shell_word>& w);
    /// The attachments, those announced changed read again (a failed read keeps the old text
    /// and says why).
    std::vector<attachment> fresh_attachments();

    /// The servers a command names: every ready one when `name` is empty, else that one. When
    /// it cannot be used, prints why and returns exit_usage (not configured) or exit_unavailable.
    int servers_for(const std::string& name, std::vector<std::string>& out);
    /// The prompt a slash command names: "/server__prompt", or "/prompt" when one server has it.
    /// Prints why not and returns nullopt.
    struct prompt_ref {
        std::string server;
        mcp::prompt prompt;
    };
    std::optional<prompt_ref> resolve_prompt(const std::string& name, bool report);
    std::vector<std::string> ready_servers() const;
    /// A request to `server`: its timeout (host_session::timeout_for), Ctrl-C cancelling it.
    mcp::call_options call_options(const std::string& server);

    // shell_completion.cpp
    /// The values completion/complete offers for argument `key` of a prompt, the arguments in
    /// `context` chosen already.
    std::vector<std::string> complete_prompt_argument(const prompt_ref& p,
                                                      std::map<std::string, std::string> context,
                                                      const std::string& key, const std::string& value);
    /// URIs that `server`'s resource templates may expand to and that start with `typed`: the
    /// rest of a literal, or the values completion/complete gives for the variable being typed
    /// (the literal after it appended).
    std::vector<std::string> complete_uri_from_templates(const std::string& server, const std::string& typed);

    host_session& session_;
    std::shared_ptr<shell_terminal> terminal_;
    std::shared_ptr<attachment_list> attachments_;
    std::vector<std::filesystem::path> roots_; ///< as given to the manager (it keeps only URIs)
    int status_ = exit_ok;
};

} // namespace mcpxx_cli
