// Tab completion in the shell: command names, prompts (/server__prompt), tool names, server
// names, resource URIs, argument names, and argument values (completion/complete for prompts,
// enum and boolean values from a tool's input schema).
#include "shell.hpp"

#include <algorithm>
#include <set>

namespace mcpxx_cli {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

/// The names given so far as NAME=VALUE words (after the command and, for call, the tool).
std::map<std::string, std::string> given(const std::vector<shell_word>& words, std::size_t from) {
    std::map<std::string, std::string> out;
    for (std::size_t i = from; i < words.size(); ++i)
        if (auto kv = split_key_value(words[i].text)) out.insert(std::move(*kv));
    return out;
}

/// Asking a server while the user waits at Tab: a few seconds at most.
constexpr std::chrono::milliseconds completion_timeout{5000};

} // namespace

std::vector<std::string> shell::complete_prompt_argument(const prompt_ref& p,
                                                         const std::vector<shell_word>& before,
                                                         const std::string& key, const std::string& value) {
    auto client = session_.servers().client(p.server);
    if (!client->server().capabilities.completions) return {};
    mcp::complete_request req;
    req.ref = mcp::prompt_reference{.name = p.prompt.name};
    req.argument = {.name = key, .value = value};
    auto context = given(before, 1);
    context.erase(key);
    if (!context.empty()) req.context_arguments = std::move(context);
    const auto r = client->complete(req, {.timeout = std::min(session_.timeout_for(p.server), completion_timeout)});
    return r.values;
}

completion shell::complete(const std::string& line, std::size_t cursor) {
    const std::string before = line.substr(0, std::min(cursor, line.size()));
    auto words = split_words(before, true);
    // The word being typed ends at the cursor; after a blank, a new (empty) one starts there.
    shell_word partial{{}, before.size(), before.size()};
    if (!words.empty() && words.back().end == before.size()) {
        partial = std::move(words.back());
        words.pop_back();
    }
    const std::string& typed = partial.text;
    auto& m = session_.servers();
    std::vector<std::string> found;
    bool append_space = true;
    const auto offer = [&](const std::string& candidate) {
        if (starts_with(candidate, typed)) found.push_back(candidate);
    };
    const auto offer_servers = [&](bool ready_only) {
        for (const auto& s : m.servers())
            if (!ready_only || s.state == mcp::host::server_state::ready) offer(s.name);
    };
    const auto offer_prompts = [&] {
        std::map<std::string, int> bare;
        for (const auto& s : ready_servers())
            for (const auto& p : m.prompts(s)) {
                offer("/" + s + "__" + p.name);
                ++bare[p.name];
            }
        for (const auto& [name, count] : bare)
            if (count == 1) offer("/" + name);
    };

    try {
        if (words.empty()) {
            if (starts_with(typed, "/"))
                offer_prompts();
            else
                for (const auto& b : builtins()) offer(b.name);
        } else if (const std::string& cmd = words.front().text; cmd.size() > 1 && cmd.front() == '/') {
            if (const auto p = resolve_prompt(cmd.substr(1), false)) {
                if (const auto kv = split_key_value(typed)) {
                    for (const auto& v : complete_prompt_argument(*p, words, kv->first, kv->second))
                        found.push_back(kv->first + "=" + v);
                } else {
                    const auto already = given(words, 1);
                    for (const auto& a : p->prompt.arguments)
                        if (!already.count(a.name)) offer(a.name + "=");
                    append_space = false;
                }
            }
        } else if (cmd == "call") {
            if (words.size() == 1) {
                for (const auto& t : m.tools()) offer(t.name);
            } else if (auto t = m.find_tool(words[1].text)) {
                const auto* props = mcp::find_object(t->tool.input_schema, "properties");
                if (const auto kv = split_key_value(typed); kv && props) {
                    if (const auto* prop = mcp::find_object(*props, kv->first)) {
                        if (const auto* values = mcp::find_array(*prop, "enum"))
                            for (const auto& v : *values)
                                offer(kv->first + "=" +
                                      (v.is_string() ? std::string(v.get_string()) : mcp::to_json(v)));
                        if (mcp::find_string(*prop, "type").value_or("") == "boolean")
                            for (const char* v : {"true", "false"}) offer(kv->first + "=" + v);
                    }
                } else if (props) {
                    const auto already = given(words, 2);
                    for (const auto& [name, _] : *props)
                        if (!already.count(std::string(name))) offer(std::string(name) + "=");
                    append_space = false;
                }
            }
        } else if (cmd == "read" || cmd == "attach") {
            if (words.size() == 1)
                offer_servers(true);
            else if (words.size() == 2)
                for (const auto& r : m.resources(words[1].text)) offer(r.uri);
        } else if (cmd == "resources" || cmd == "prompts" || cmd == "ping") {
            if (words.size() == 1) offer_servers(false);
        } else if (cmd == "tools") {
            if (words.size() == 1) offer_servers(false);
        } else if (cmd == "detach") {
            for (const auto& a : attachments_) offer(a.uri);
        } else if (cmd == "help") {
            if (words.size() == 1)
                for (const auto& b : builtins()) offer(b.name);
        } else if (cmd == "roots") {
            if (words.size() == 1) {
                offer("add");
                offer("remove");
            } else if (words.size() == 2 && words[1].text == "remove") {
                for (const auto& r : roots_) offer(r.string());
            }
        }
    } catch (const std::exception&) {
        // A server that went away or did not answer in time: nothing to offer.
        return {};
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    completion c{.start = partial.begin, .candidates = {}, .append_space = append_space};
    for (const auto& f : found) c.candidates.push_back(quote_word(f));
    return c;
}

} // namespace mcpxx_cli
