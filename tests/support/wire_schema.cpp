#include "support/wire_schema.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mcp::test {

wire_schema::wire_schema(revision r) : rev_(r) {
    const std::string path =
        std::string(MCPXX_TEST_DATA_DIR) + "/mcp-schema/" + std::string(to_string(r)) + "/schema.json";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    doc_ = json::parse(ss.str());
    defs_key_ = doc_.as_object().contains("$defs") ? "$defs" : "definitions";
    for (const auto& kv : doc_.at(defs_key_).as_object()) {
        const auto* def = kv.value().if_object();
        if (!def) continue;
        const auto* props = find_object(*def, "properties");
        if (!props) continue;
        const auto* method = find_object(*props, "method");
        if (!method) continue;
        if (auto c = find_string(*method, "const")) method_defs_[std::string(*c)] = std::string(kv.key());
    }
}

std::string wire_schema::definition_of_method(std::string_view method) const {
    auto it = method_defs_.find(method);
    return it == method_defs_.end() ? std::string() : it->second;
}

std::string wire_schema::result_definition_of(std::string_view method) const {
    auto req = definition_of_method(method);
    if (req.size() > 7 && req.compare(req.size() - 7, 7, "Request") == 0) {
        auto result = req.substr(0, req.size() - 7) + "Result";
        if (doc_.at(defs_key_).as_object().contains(result)) return result;
    }
    return doc_.at(defs_key_).as_object().contains("EmptyResult") ? "EmptyResult" : "Result";
}

const schema::validator& wire_schema::validator_for(const std::string& definition) const {
    std::lock_guard lock(mu_);
    auto it = cache_.find(definition);
    if (it == cache_.end()) {
        schema::compile_options o;
        it = cache_
                 .emplace(definition,
                          schema::validator::compile_ref(doc_, "/" + defs_key_ + "/" + definition, o))
                 .first;
    }
    return it->second;
}

std::vector<std::string> wire_schema::run(const std::string& definition, const json::value& instance,
                                          const char* what) const {
    std::vector<std::string> out;
    for (const auto& e : validator_for(definition).validate(instance))
        out.push_back(std::string(what) + " vs " + definition + ": at '" + e.instance_location + "' " +
                      e.keyword + ": " + e.message);
    return out;
}

std::vector<std::string> wire_schema::check(const json::value& message,
                                            std::optional<std::string> request_method) const {
    std::vector<std::string> out;
    auto add = [&](std::vector<std::string> v) { out.insert(out.end(), v.begin(), v.end()); };
    if (message.is_array()) { // a batch reply (2025-03-26)
        for (const auto& m : message.as_array()) add(check(m, std::nullopt));
        return out;
    }
    const auto* o = message.if_object();
    if (o && o->contains("error") && o->contains("id") && o->at("id").is_null()) {
        // JSON-RPC 2.0 answers an unreadable id with "id": null; the 2024-11-05 .. 2025-06-18
        // schemas cannot express that (id must be a string or integer) and 2025-11-25 leaves
        // it out instead. The rest of the message must still conform: check it with a
        // placeholder id.
        if (rev_ >= revision::v2025_11_25)
            out.push_back("id: null is not allowed from 2025-11-25 on (leave id out)");
        auto copy = *o;
        copy["id"] = 0;
        add(run("JSONRPCMessage", copy, "message (id null replaced)"));
        return out;
    }
    add(run("JSONRPCMessage", message, "message"));
    if (!o) return out;
    if (auto method = find_string(*o, "method")) {
        auto def = definition_of_method(*method);
        if (def.empty())
            out.push_back("method '" + std::string(*method) + "' is not defined by " +
                          std::string(to_string(rev_)));
        else
            add(run(def, message, "message"));
    } else if (const auto* result = o->if_contains("result"); result && request_method) {
        // 2026-07-28: a tools/call, prompts/get or resources/read may be answered with an
        // InputRequiredResult (MRTR) instead of its own result type.
        const auto* rt = result->is_object() ? result->as_object().if_contains("resultType") : nullptr;
        if (rt && *rt == "input_required")
            add(run("InputRequiredResult", *result, "result"));
        else
            add(run(result_definition_of(*request_method), *result, "result"));
    }
    return out;
}

void wire_recorder::record(int from, std::string_view text) {
    json::value v;
    try {
        v = json::parse(text);
    } catch (const std::exception& e) {
        std::lock_guard lock(mu_);
        problems_.push_back(std::string(text) + "\n  not JSON: " + e.what());
        return;
    }
    std::optional<std::string> answered;
    {
        std::lock_guard lock(mu_);
        ++count_;
        if (const auto* o = v.if_object()) {
            const auto* id = o->if_contains("id");
            if (auto m = find_string(*o, "method")) {
                methods_.emplace_back(*m);
                if (id) pending_[from][to_json(*id)] = std::string(*m);
            } else if (id) {
                auto& theirs = pending_[1 - from];
                if (auto it = theirs.find(to_json(*id)); it != theirs.end()) {
                    answered = it->second;
                    theirs.erase(it);
                }
            }
        }
    }
    if (checked_side_ && *checked_side_ != from) return;
    auto found = schema_.check(v, answered);
    std::lock_guard lock(mu_);
    for (auto& p : found) problems_.push_back(std::string(text.substr(0, 300)) + "\n  " + p);
}

std::vector<std::string> wire_recorder::problems() const {
    std::lock_guard lock(mu_);
    return problems_;
}

std::size_t wire_recorder::messages() const {
    std::lock_guard lock(mu_);
    return count_;
}

std::vector<std::string> wire_recorder::methods() const {
    std::lock_guard lock(mu_);
    return methods_;
}

} // namespace mcp::test
