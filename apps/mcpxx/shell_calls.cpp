// The shell's builtins that go to a server: call, read, attach (and the attachments), and the
// slash commands that get prompts.
#include "host_output.hpp"
#include "read_file.hpp"
#include "shell.hpp"

#include <iostream>

namespace mcpxx_cli {
namespace {

std::string summary_of(const mcp::resource_contents& c) {
    if (const auto* t = std::get_if<mcp::text_resource_contents>(&c))
        return t->mime_type.value_or("text") + ", " + std::to_string(t->text.size()) + " bytes";
    const auto& b = std::get<mcp::blob_resource_contents>(c);
    return b.mime_type.value_or("binary") + ", about " + std::to_string(b.blob.size() / 4 * 3) + " bytes";
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
        auto progress = std::make_shared<progress_display>();
        result =
            m.call_tool(entry->name, std::move(arguments),
                        {.on_progress = [progress](const mcp::progress_update& p) { progress->update(p); },
                         .cancel = session_.cancel_token()});
    }
    print_call_result(result);
    return result.is_error.value_or(false) ? exit_negative : exit_ok;
}

int shell::cmd_read(const std::vector<shell_word>& w, const std::string&) {
    if (w.size() != 3) throw input_error("usage: read SERVER URI");
    std::vector<std::string> server;
    if (int rc = servers_for(w[1].text, server); rc != exit_ok) return rc;
    const auto r = session_.servers().client(server.front())->read_resource(w[2].text, call_options(server.front()));
    for (const auto& c : r.contents) std::cout << describe(c) << "\n";
    return exit_ok;
}

int shell::cmd_attach(const std::vector<shell_word>& w, const std::string&) {
    if (w.size() != 3) throw input_error("usage: attach SERVER URI");
    std::vector<std::string> server;
    if (int rc = servers_for(w[1].text, server); rc != exit_ok) return rc;
    auto r = session_.servers().client(server.front())->read_resource(w[2].text, call_options(server.front()));
    for (const auto& c : r.contents) std::cout << describe(c) << "\n";
    // Attaching again replaces what was kept (a host re-reads context that changed).
    std::erase_if(attachments_,
                  [&](const auto& a) { return a.server == server.front() && a.uri == w[2].text; });
    attachments_.push_back({server.front(), w[2].text, std::move(r.contents)});
    terminal_->notify(style::for_stream(2).dim("attached " + w[2].text + " (" +
                                               std::to_string(attachments_.size()) +
                                               " attached; detach forgets it)"));
    return exit_ok;
}

int shell::cmd_attachments(const std::vector<shell_word>&, const std::string&) {
    if (attachments_.empty()) {
        terminal_->notify("nothing attached (attach SERVER URI)");
        return exit_ok;
    }
    const auto st = style::for_stream(1);
    for (const auto& a : attachments_) {
        std::string what;
        for (const auto& c : a.contents) what += (what.empty() ? "" : "; ") + summary_of(c);
        std::cout << st.bold(a.server) << "  " << a.uri << "  " << st.dim(what.empty() ? "empty" : what)
                  << "\n";
    }
    return exit_ok;
}

int shell::cmd_detach(const std::vector<shell_word>& w, const std::string&) {
    if (w.size() == 1) {
        terminal_->notify("detached " + std::to_string(attachments_.size()) +
                          (attachments_.size() == 1 ? " resource" : " resources"));
        attachments_.clear();
        return exit_ok;
    }
    std::size_t removed = 0;
    for (std::size_t i = 1; i < w.size(); ++i)
        removed += std::erase_if(attachments_, [&](const auto& a) { return a.uri == w[i].text; });
    if (removed == 0) throw input_error("not attached: " + w[1].text + " (attachments lists them)");
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
        const auto answer =
            terminal_->ask(a.name + (a.description ? " (" + *a.description + ")" : "") + ": ", values);
        if (!answer) {
            terminal_->notify("cancelled");
            return exit_interrupted;
        }
        args[a.name] = *answer;
    }
    const auto r =
        session_.servers().client(ref->server)->get_prompt(ref->prompt.name, std::move(args), call_options(ref->server));
    print_prompt_result(r);
    return exit_ok;
}

} // namespace mcpxx_cli
