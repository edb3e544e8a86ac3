// The shell's builtins that go to a server: call, read, attach (and the attachments), and the
// slash commands that get prompts.
#include "host_output.hpp"
#include "read_file.hpp"
#include "shell.hpp"

#include <mcp/json/text.hpp>

#include <iostream>

namespace mcpxx_cli {
namespace {

std::string summary_of(const mcp::resource_contents& c) {
    if (const auto* t = std::get_if<mcp::text_resource_contents>(&c))
        return mcp::printable(t->mime_type.value_or("text")) + ", " + std::to_string(t->text.size()) +
               " bytes";
    const auto& b = std::get<mcp::blob_resource_contents>(c);
    return mcp::printable(b.mime_type.value_or("binary")) + ", about " +
           std::to_string(b.blob.size() / 4 * 3) + " bytes";
}

} // namespace

int shell::cmd_call(const std::vector<shell_word>& w, const std::string& line) {
    if (w.size() < 2) throw input_error("usage: call TOOL [KEY=VALUE ...|JSON]");
    auto& m = session_.servers();
    const std::string& name = w[1].text;
    auto entry = m.find_tool(name);
    if (!entry) {
        // A bare tool name is enough when only one server has it.
        std::vector<mcp::host::tool_entry> same;
        for (auto& t : m.tools())
            if (t.tool.name == name) same.push_back(std::move(t));
        if (same.size() == 1) {
            entry = std::move(same.front());
        } else if (same.size() > 1) {
            std::string names;
            for (const auto& t : same) names += (names.empty() ? "" : ", ") + t.name;
            throw input_error("several servers have a tool \"" + name + "\": " + names);
        } else {
            for (const auto& s : m.servers())
                if (name.rfind(s.name + "__", 0) == 0 && s.state != mcp::host::server_state::ready) {
                    print_error(mcp::host::not_ready_reason(s.name, s.state, s.error));
                    return exit_unavailable;
                }
            throw input_error("no tool \"" + name + "\" (tools lists them)");
        }
    }

    mcp::json::object arguments;
    const auto rest = line.substr(std::min(line.size(), w[1].end));
    const auto first = rest.find_first_not_of(" \t");
    if (first != std::string::npos && rest[first] == '{') {
        boost::system::error_code ec;
        auto v = mcp::parse_json(rest.substr(first), ec);
        if (!v || !v->is_object())
            throw input_error("the arguments are not one JSON object: " + rest.substr(first));
        arguments = std::move(v->get_object());
    } else {
        std::vector<std::string> pairs;
        for (std::size_t i = 2; i < w.size(); ++i) {
            if (!split_key_value(w[i].text))
                throw input_error("arguments are KEY=VALUE words or one JSON object, got \"" + w[i].text +
                                  "\"");
            pairs.push_back(w[i].text);
        }
        arguments = parse_key_values(pairs, &entry->tool.input_schema);
    }

    mcp::call_tool_result result;
    {
        call_progress progress;
        result = m.call_tool(entry->name, std::move(arguments),
                             {.on_progress = progress.on_progress(), .cancel = session_.cancel_token()});
    }
    print_call_result(result);
    return result.is_error.value_or(false) ? exit_negative : exit_ok;
}

int shell::cmd_read(const std::vector<shell_word>& w, const std::string&) {
    if (w.size() != 3) throw input_error("usage: read SERVER URI");
    std::vector<std::string> server;
    if (int rc = servers_for(w[1].text, server); rc != exit_ok) return rc;
    const auto r =
        session_.servers().client(server.front())->read_resource(w[2].text, call_options(server.front()));
    for (const auto& c : r.contents) std::cout << content_body(describe(c)) << "\n";
    return exit_ok;
}

// ------------------------------------------------------------------ attachments

void attachment_list::put(attachment a) {
    std::lock_guard lock(mu_);
    // Attaching again replaces what was kept (a host re-reads context that changed).
    std::erase_if(items_, [&](const auto& x) { return x.server == a.server && x.uri == a.uri; });
    items_.push_back(std::move(a));
}

std::vector<attachment> attachment_list::remove(const std::string& uri) {
    std::lock_guard lock(mu_);
    std::vector<attachment> gone;
    std::erase_if(items_, [&](auto& x) {
        if (!uri.empty() && x.uri != uri) return false;
        gone.push_back(std::move(x));
        return true;
    });
    return gone;
}

std::vector<attachment> attachment_list::all() const {
    std::lock_guard lock(mu_);
    return items_;
}

bool attachment_list::mark_changed(const std::string& server, const std::string& uri) {
    std::lock_guard lock(mu_);
    bool found = false;
    for (auto& x : items_)
        if (x.server == server && x.uri == uri) found = x.changed = true;
    return found;
}

int shell::cmd_attach(const std::vector<shell_word>& w, const std::string&) {
    if (w.size() != 3) throw input_error("usage: attach SERVER URI");
    std::vector<std::string> server;
    if (int rc = servers_for(w[1].text, server); rc != exit_ok) return rc;
    auto client = session_.servers().client(server.front());
    auto r = client->read_resource(w[2].text, call_options(server.front()));
    for (const auto& c : r.contents) std::cout << content_body(describe(c)) << "\n";
    attachment a{server.front(), w[2].text, std::move(r.contents)};
    // Subscribed, so that a change is noticed (where the server offers subscriptions).
    const auto& caps = client->server().capabilities.resources;
    std::string how = "not subscribed: the server offers no subscriptions";
    if (caps && caps->subscribe.value_or(false)) {
        try {
            client->subscribe(a.uri, call_options(server.front()));
            a.subscribed = true;
            how = "changes are announced";
        } catch (const std::exception& e) {
            how = "not subscribed: " + mcp::printable(e.what());
        }
    }
    attachments_->put(std::move(a));
    terminal_->notify(style::for_stream(2).dim("attached " + w[2].text + " (" +
                                               std::to_string(attachments_->all().size()) + " attached; " +
                                               how + "; every prompt shows it; detach forgets it)"));
    return exit_ok;
}

std::vector<attachment> shell::fresh_attachments() {
    for (auto a : attachments_->all()) {
        if (!a.changed) continue;
        try {
            auto r = session_.servers().client(a.server)->read_resource(a.uri, call_options(a.server));
            a.contents = std::move(r.contents);
            a.changed = false;
            attachments_->put(std::move(a));
        } catch (const std::exception& e) {
            terminal_->notify("could not read the attached " + a.uri + " again (" + mcp::printable(e.what()) +
                              "); what was read before is used");
        }
    }
    return attachments_->all();
}

int shell::cmd_attachments(const std::vector<shell_word>&, const std::string&) {
    const auto attached = fresh_attachments();
    if (attached.empty()) {
        terminal_->notify("nothing attached (attach SERVER URI)");
        return exit_ok;
    }
    const auto st = style::for_stream(1);
    for (const auto& a : attached) {
        std::string what;
        for (const auto& c : a.contents) what += (what.empty() ? "" : "; ") + summary_of(c);
        if (!a.subscribed) what += (what.empty() ? "" : "; ") + std::string("not subscribed");
        std::cout << st.bold(a.server) << "  " << a.uri << "  " << st.dim(what.empty() ? "empty" : what)
                  << "\n";
    }
    return exit_ok;
}

int shell::cmd_detach(const std::vector<shell_word>& w, const std::string&) {
    std::vector<attachment> gone;
    if (w.size() == 1) {
        gone = attachments_->remove("");
        terminal_->notify("detached " + std::to_string(gone.size()) +
                          (gone.size() == 1 ? " resource" : " resources"));
    } else {
        for (std::size_t i = 1; i < w.size(); ++i)
            for (auto& a : attachments_->remove(w[i].text)) gone.push_back(std::move(a));
        if (gone.empty()) throw input_error("not attached: " + w[1].text + " (attachments lists them)");
    }
    for (const auto& a : gone) {
        if (!a.subscribed) continue;
        bool still = false; // attached again meanwhile under another server? keep its subscription
        for (const auto& b : attachments_->all()) still |= b.server == a.server && b.uri == a.uri;
        if (still) continue;
        try {
            session_.servers().client(a.server)->unsubscribe(a.uri, call_options(a.server));
        } catch (const std::exception&) {
            // The server went away: nothing left to undo.
        }
    }
    return exit_ok;
}

// ------------------------------------------------------------------ prompts

std::optional<shell::prompt_ref> shell::resolve_prompt(const std::string& name, bool report) {
    auto& m = session_.servers();
    std::vector<prompt_ref> bare;
    for (const auto& s : ready_servers()) {
        const bool qualified = name.size() > s.size() + 2 && name.compare(0, s.size() + 2, s + "__") == 0;
        for (auto& p : m.prompts(s)) {
            if (qualified && p.name == name.substr(s.size() + 2)) return prompt_ref{s, std::move(p)};
            if (p.name == name) bare.push_back({s, std::move(p)});
        }
    }
    if (bare.size() == 1) return std::move(bare.front());
    if (!report) return std::nullopt;
    if (bare.size() > 1) {
        std::string names;
        for (const auto& b : bare) names += (names.empty() ? "/" : ", /") + b.server + "__" + b.prompt.name;
        print_error("several servers have a prompt \"" + name + "\": " + names);
    } else {
        print_error("no prompt \"/" + name + "\" (prompts lists them)");
    }
    return std::nullopt;
}

int shell::run_prompt(const std::vector<shell_word>& w) {
    const auto ref = resolve_prompt(w.front().text.substr(1), true);
    if (!ref) return exit_usage;
    std::map<std::string, std::string> args;
    for (std::size_t i = 1; i < w.size(); ++i) {
        auto kv = split_key_value(w[i].text);
        if (!kv) throw input_error("prompt arguments are NAME=VALUE, got \"" + w[i].text + "\"");
        args[kv->first] = std::move(kv->second);
    }
    for (const auto& a : ref->prompt.arguments) {
        if (!a.required.value_or(false) || args.count(a.name)) continue;
        // Tab completes the answer as it would the argument on the command line.
        const completer values = [&](const std::string& line, std::size_t cursor) {
            completion c{.start = 0, .candidates = {}, .append_space = false};
            const std::string typed = line.substr(0, std::min(cursor, line.size()));
            try {
                for (auto& v : complete_prompt_argument(*ref, args, a.name, typed))
                    if (v.compare(0, typed.size(), typed) == 0) c.candidates.push_back(std::move(v));
            } catch (const std::exception&) {
                // A server that went away or did not answer in time: nothing to offer.
            }
            return c;
        };
        const auto answer = terminal_->ask(
            mcp::printable(a.name + (a.description ? " (" + *a.description + ")" : "")) + ": ", values);
        if (!answer) {
            terminal_->notify("cancelled");
            return exit_interrupted;
        }
        args[a.name] = *answer;
    }
    const auto r = session_.servers()
                       .client(ref->server)
                       ->get_prompt(ref->prompt.name, std::move(args), call_options(ref->server));
    print_prompt_result(r);
    // The attached resources go with the prompt, as a host gives them to its model: one more
    // user message of embedded resources.
    const auto st = style::for_stream(1);
    for (const auto& a : fresh_attachments())
        for (const auto& c : a.contents)
            std::cout << st.bold("user: ") << "[attached " << a.uri << "] " << content_body(describe(c))
                      << "\n";
    return exit_ok;
}

} // namespace mcpxx_cli
