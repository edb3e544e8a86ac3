// Tab completion in the shell: command names, prompts (/server__prompt), tool names, server
// names, resource URIs (listed ones, and what resource templates expand to, through
// completion/complete), argument names, and argument values (completion/complete for prompts,
// enum and boolean values from a tool's input schema).
#include "shell.hpp"

#include <algorithm>
#include <set>

#include <mcp/protocol/uri_template.hpp>

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
                                                         std::map<std::string, std::string> context,
                                                         const std::string& key, const std::string& value) {
    auto client = session_.servers().client(p.server);
    if (!client->server().capabilities.completions) return {};
    mcp::complete_request req;
    req.ref = mcp::prompt_reference{.name = p.prompt.name};
    req.argument = {.name = key, .value = value};
    context.erase(key);
    if (!context.empty()) req.context_arguments = std::move(context);
    const auto r =
        client->complete(req, {.timeout = std::min(session_.timeout_for(p.server), completion_timeout)});
    return r.values;
}

namespace {

/// A resource template in pieces: literal text, and expressions ({op var,...}).
struct template_piece {
    bool literal = true;
    std::string text;    ///< the literal, or the expression's first variable
    char op = 0;         ///< the expression's operator (0: none)
    bool one_var = true; ///< the expression names one variable
};

std::vector<template_piece> pieces_of(const std::string& t) {
    std::vector<template_piece> out;
    std::size_t i = 0;
    while (i < t.size()) {
        const auto open = t.find('{', i);
        if (open != i) {
            out.push_back({true, t.substr(i, open == std::string::npos ? std::string::npos : open - i)});
            if (open == std::string::npos) break;
        }
        const auto close = t.find('}', open);
        if (close == std::string::npos) return {}; // not a template: nothing to offer
        std::string body = t.substr(open + 1, close - open - 1);
        template_piece e{false, {}, 0, true};
        if (!body.empty() && std::string_view("+#./;?&").find(body[0]) != std::string_view::npos) {
            e.op = body[0];
            body.erase(0, 1);
        }
        e.one_var = body.find(',') == std::string::npos;
        e.text = body.substr(0, body.find_first_of(",:*"));
        out.push_back(std::move(e));
        i = close + 1;
    }
    return out;
}

} // namespace

std::vector<std::string> shell::complete_uri_from_templates(const std::string& server,
                                                            const std::string& typed) {
    auto& m = session_.servers();
    auto client = m.client(server);
    const bool completes = client->server().capabilities.completions;
    std::vector<std::string> out;
    for (const auto& t : m.resource_templates(server)) try {
            const auto pieces = pieces_of(t.uri_template);
            std::size_t pos = 0; // in `typed`
            std::map<std::string, std::string> context;
            for (std::size_t i = 0; i < pieces.size(); ++i) {
                const auto& piece = pieces[i];
                const std::string rest = typed.substr(pos);
                if (piece.literal) {
                    if (rest.compare(0, piece.text.size(), piece.text) == 0 &&
                        rest.size() >= piece.text.size()) {
                        pos += piece.text.size();
                        continue;
                    }
                    // Typed part of the literal: offer the rest of it.
                    if (piece.text.compare(0, rest.size(), rest) == 0)
                        out.push_back(typed.substr(0, pos) + piece.text);
                    break;
                }
                // Simple or reserved expansion of one variable; query and other forms are left to
                // the user.
                if (!piece.one_var || (piece.op != 0 && piece.op != '+')) break;
                const std::string* next =
                    i + 1 < pieces.size() && pieces[i + 1].literal ? &pieces[i + 1].text : nullptr;
                // A simple expansion's value has no reserved characters: it ends where the next
                // literal starts (typed in part, the literal offers its rest).
                const auto at = !next || next->empty() ? std::string::npos
                                : piece.op == 0        ? rest.find((*next)[0])
                                                       : rest.find(*next);
                if (at != std::string::npos) {
                    context[piece.text] = rest.substr(0, at);
                    pos += at;
                    continue;
                }
                if (!completes) break;
                // The cursor is in this variable: what the server completes it to.
                mcp::complete_request req;
                req.ref = mcp::resource_template_reference{.uri = t.uri_template};
                req.argument = {.name = piece.text, .value = rest};
                if (!context.empty()) req.context_arguments = context;
                const auto r = client->complete(
                    req, {.timeout = std::min(session_.timeout_for(server), completion_timeout)});
                const mcp::uri_template one(std::string("{") + (piece.op ? std::string(1, piece.op) : "") +
                                            "v}");
                for (const auto& v : r.values)
                    out.push_back(typed.substr(0, pos) + one.expand(mcp::json::object{{"v", v}}) +
                                  (next ? *next : ""));
                break;
            }
        } catch (const std::exception&) {
            // This template could not be completed (the server refused, a value it cannot expand):
            // the others still can.
        }
    return out;
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
                    for (const auto& v : complete_prompt_argument(*p, given(words, 1), kv->first, kv->second))
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
            if (words.size() == 1) {
                offer_servers(true);
            } else if (words.size() == 2) {
                for (const auto& r : m.resources(words[1].text)) offer(r.uri);
                // And what the server's resource templates expand to (completion/complete).
                for (const auto& u : complete_uri_from_templates(words[1].text, typed)) offer(u);
                // A URI offered whole is done; one that stops at a literal goes on.
                append_space = found.size() == 1 && m.resource_templates(words[1].text).empty();
            }
        } else if (cmd == "resources" || cmd == "prompts" || cmd == "ping") {
            if (words.size() == 1) offer_servers(false);
        } else if (cmd == "tools") {
            if (words.size() == 1) offer_servers(false);
        } else if (cmd == "detach") {
            for (const auto& a : attachments_->all()) offer(a.uri);
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
