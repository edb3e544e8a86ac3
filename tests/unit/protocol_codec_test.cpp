// Per-revision wire codec of mcp/protocol: fully populated objects of every type are encoded for
// every revision and checked against that revision's official schema.json (every emitted member
// name must be defined there, recursively; every member the schema defines at the top level must
// be emitted unless listed as not modelled), plus golden presence/absence checks and round trips.
#include <mcp/protocol/types.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace mcp;
namespace {

constexpr revision V1 = revision::v2024_11_05, V2 = revision::v2025_03_26, V3 = revision::v2025_06_18,
                   V4 = revision::v2025_11_25, V5 = revision::v2026_07_28;

// ---------------------------------------------------------------- schema access
struct schema_doc {
    json::value doc;
    const json::object* defs = nullptr;
};

const schema_doc& schema(revision r) {
    static std::map<revision, schema_doc> cache;
    auto it = cache.find(r);
    if (it != cache.end()) return it->second;
    const std::string path = std::string(MCPXX_TEST_DATA_DIR) + "/mcp-schema/" + std::string(to_string(r)) + "/schema.json";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    schema_doc d;
    d.doc = json::parse(ss.str());
    const auto& root = d.doc.as_object();
    d.defs = root.contains("$defs") ? &root.at("$defs").as_object() : &root.at("definitions").as_object();
    return cache.emplace(r, std::move(d)).first->second;
}

const json::object& deref(const schema_doc& d, const json::object& s) {
    const json::object* cur = &s;
    while (const auto* ref = cur->if_contains("$ref")) {
        std::string_view p = ref->as_string();
        cur = &d.defs->at(p.substr(p.rfind('/') + 1)).as_object();
    }
    return *cur;
}

/// "CallToolRequest.params" -> the params schema (dotted walk through "properties").
const json::object* target_schema(const schema_doc& d, const std::string& target, bool& inline_params) {
    std::stringstream ss(target);
    std::string part;
    std::getline(ss, part, '.');
    if (!d.defs->contains(part)) return nullptr;
    const json::object* cur = &d.defs->at(part).as_object();
    inline_params = false;
    while (std::getline(ss, part, '.')) {
        cur = &deref(d, *cur);
        if (part == "items") {
            if (!cur->contains("items")) return nullptr;
            cur = &cur->at("items").as_object();
            continue;
        }
        const auto* props = cur->if_contains("properties");
        if (!props || !props->as_object().contains(part)) return nullptr;
        const auto& next = props->as_object().at(part).as_object();
        inline_params = (part == "params") && !next.contains("$ref");
        cur = &next;
    }
    return &deref(d, *cur);
}

// Members whose value is free-form (a user schema, user data): names inside are not ours.
const std::set<std::string> free_form = {
    "_meta", "inputSchema", "outputSchema", "requestedSchema", "structuredContent",
    "input", "metadata",    "experimental", "extensions",      "inputResponses",
    "data"};

bool type_ok(const json::object& s, const json::value& v) {
    const auto* t = s.if_contains("type");
    if (!t) return true;
    auto one = [&](std::string_view n) {
        if (n == "object") return v.is_object();
        if (n == "array") return v.is_array();
        if (n == "string") return v.is_string();
        if (n == "boolean") return v.is_bool();
        if (n == "integer") return v.is_int64() || v.is_uint64();
        if (n == "number") return v.is_number();
        if (n == "null") return v.is_null();
        return true;
    };
    if (t->is_string()) return one(t->as_string());
    for (const auto& n : t->as_array())
        if (one(n.as_string())) return true;
    return false;
}

/// Collects every place where `inst` uses a member name (or a const/enum value, or a required
/// member) the schema does not agree with.
void check(const schema_doc& d, const json::object& s0, const json::value& inst, const std::string& path,
           std::vector<std::string>& errs, const std::set<std::string>& extra = {}) {
    const auto& s = deref(d, s0);
    for (const char* comb : {"anyOf", "oneOf"}) {
        if (const auto* alts = s.if_contains(comb)) {
            std::vector<std::string> best;
            bool first = true;
            for (const auto& alt : alts->as_array()) {
                std::vector<std::string> e;
                check(d, alt.as_object(), inst, path, e, extra);
                if (e.empty()) return;
                if (first || e.size() < best.size()) best = e;
                first = false;
            }
            errs.push_back(path + ": no alternative of " + comb +
                           " matches, closest: " + (best.empty() ? "" : best[0]));
            return;
        }
    }
    if (!type_ok(s, inst)) {
        errs.push_back(path + ": wrong JSON type " + serialize(inst).substr(0, 60));
        return;
    }
    if (const auto* c = s.if_contains("const"); c && *c != inst)
        errs.push_back(path + ": expected const " + serialize(*c));
    if (const auto* en = s.if_contains("enum"); en && inst.is_string()) {
        bool found = false;
        for (const auto& e : en->as_array()) found = found || e == inst;
        if (!found) errs.push_back(path + ": value not in enum: " + serialize(inst));
    }
    if (inst.is_object()) {
        const auto& o = inst.as_object();
        if (const auto* props = s.if_contains("properties")) {
            const auto& p = props->as_object();
            for (const auto& kv : o) {
                std::string k(kv.key());
                if (!p.contains(k)) {
                    if (!extra.count(k)) errs.push_back(path + "." + k + ": not defined by the schema");
                    continue;
                }
                if (free_form.count(k)) continue;
                check(d, p.at(k).as_object(), kv.value(), path + "." + k, errs);
            }
        } else if (const auto* ap = s.if_contains("additionalProperties"); ap && ap->is_object()) {
            for (const auto& kv : o)
                check(d, ap->as_object(), kv.value(), path + "." + std::string(kv.key()), errs);
        }
        if (const auto* req = s.if_contains("required"))
            for (const auto& k : req->as_array())
                if (!o.contains(k.as_string()))
                    errs.push_back(path + "." + std::string(k.as_string()) + ": required but missing");
    } else if (inst.is_array()) {
        if (const auto* items = s.if_contains("items"); items && items->is_object()) {
            std::size_t i = 0;
            for (const auto& e : inst.as_array())
                check(d, items->as_object(), e, path + "[" + std::to_string(i++) + "]", errs);
        }
    }
}

// ---------------------------------------------------------------- fully populated fixtures
json::object meta_obj() {
    return {{"com.example/trace", "abc"}};
}
annotations full_annotations() {
    return {{role::user, role::assistant}, 0.5, "2025-01-01T00:00:00Z"};
}
icon full_icon() {
    return {"https://example.com/i.png", "image/png", {"48x48"}, icon_theme::dark};
}
implementation full_impl() {
    return {"srv", "1.2.3", "Server", "A server", {full_icon()}, "https://example.com"};
}
json::object object_schema() {
    return {{"type", "object"},
            {"properties", json::object{{"x", json::object{{"type", "string"}}}}},
            {"required", json::array{"x"}}};
}
tool full_tool() {
    tool t;
    t.name = "echo";
    t.title = "Echo";
    t.description = "Echo the input";
    t.input_schema = object_schema();
    t.output_schema = object_schema();
    t.annotations = tool_annotations{"Echo tool", true, false, true, false};
    t.icons = {full_icon()};
    t.execution = tool_execution{task_support_level::optional};
    t.meta = meta_obj();
    return t;
}
std::vector<content_block> all_blocks() {
    resource_link l{"file:///a.txt",    "a.txt",   "A", "a file", "text/plain", 12, {full_icon()},
                    full_annotations(), meta_obj()};
    return {
        text_content{"hello", full_annotations(), meta_obj()},
        image_content{"aGk=", "image/png", full_annotations(), meta_obj()},
        audio_content{"aGk=", "audio/wav", full_annotations(), meta_obj()},
        l,
        embedded_resource{text_resource_contents{"file:///b", "text/plain", "b", meta_obj()},
                          full_annotations(), meta_obj()},
        embedded_resource{blob_resource_contents{"file:///c", "application/octet-stream", "AAE=", meta_obj()},
                          full_annotations(), meta_obj()}};
}
call_tool_result full_call_result() {
    return {all_blocks(), json::object{{"x", "y"}}, false, meta_obj()};
}
resource full_resource() {
    return {"file:///a.txt",    "a.txt",       "A",       "a file", "text/plain", 12,
            full_annotations(), {full_icon()}, meta_obj()};
}
resource_template full_template() {
    return {"file:///{path}",   "files",       "Files",   "any file", "text/plain",
            full_annotations(), {full_icon()}, meta_obj()};
}
prompt full_prompt() {
    return {"review",      "Review",  "Review code", {{"code", "Code", "the code", true}},
            {full_icon()}, meta_obj()};
}
client_capabilities full_client_caps() {
    return {json::object{{"x", json::object{}}},
            roots_capability{true},
            sampling_capability{true, true},
            elicitation_capability{true, true},
            client_tasks_capability{true, true, true, true},
            json::object{{"io.example/ext", json::object{}}}};
}
server_capabilities full_server_caps() {
    return {json::object{{"x", json::object{}}},
            true,
            true,
            list_changed_capability{true},
            resources_capability{true, true},
            list_changed_capability{true},
            server_tasks_capability{true, true, true},
            json::object{{"io.example/ext", json::object{}}}};
}
std::vector<sampling_content> sampling_blocks() {
    return {text_content{"hi", full_annotations(), meta_obj()},
            image_content{"aGk=", "image/png", full_annotations(), meta_obj()},
            audio_content{"aGk=", "audio/wav", full_annotations(), meta_obj()},
            tool_use_content{"u1", "echo", json::object{{"x", "1"}}, meta_obj()},
            tool_result_content{"u1", {text("done")}, json::object{{"x", "y"}}, false, meta_obj()}};
}
create_message_request full_create_message() {
    create_message_request c;
    c.messages = {sampling_message{role::user, sampling_blocks(), meta_obj()}};
    c.model_preferences = model_preferences{{model_hint{"claude"}}, 0.1, 0.2, 0.3};
    c.system_prompt = "be brief";
    c.include_context = include_context::this_server;
    c.temperature = 0.7;
    c.max_tokens = 100;
    c.stop_sequences = std::vector<std::string>{"STOP"};
    c.metadata = json::object{{"k", "v"}};
    c.tools = {full_tool()};
    c.tool_choice = tool_choice{tool_choice_mode::auto_};
    c.meta = meta_obj();
    return c;
}

// ---------------------------------------------------------------- sample table
struct sample {
    std::string name;   ///< test label
    std::string target; ///< schema definition (dotted path) the encoding must conform to
    revision first, last;
    std::function<json::object(revision)> encode;
    std::function<void(revision)> roundtrip;
    std::set<std::string> unmodelled; ///< schema members at the top level we do not emit
};

template <class T>
sample make(std::string name, std::string target, T value, revision first = V1, revision last = V5,
            std::set<std::string> unmodelled = {}, std::function<void(T&, revision)> strip = {}) {
    sample s{name,
             target,
             first,
             last,
             [value](revision r) { return to_json(value, r); },
             {},
             std::move(unmodelled)};
    s.roundtrip = [value, strip, name](revision r) {
        T expected = value;
        if (strip) strip(expected, r);
        T back = from_json<T>(to_json(value, r));
        EXPECT_TRUE(back == expected) << name << " @" << to_string(r) << ": " << serialize(to_json(value, r));
    };
    return s;
}

std::vector<sample> samples() {
    std::vector<sample> s;
    s.push_back(make("implementation", "Implementation", full_impl()));
    s.push_back(make("icon", "Icon", full_icon(), V4));
    s.push_back(make("annotations", "Annotations", full_annotations(), V2));
    for (std::size_t i = 0; i < all_blocks().size(); ++i) {
        auto b = all_blocks()[i];
        s.push_back(make("content_block_" + std::to_string(i), "CallToolResult.content.items", b));
    }
    for (std::size_t i = 0; i < sampling_blocks().size(); ++i)
        s.push_back(make("sampling_content_" + std::to_string(i), "CreateMessageResult.content",
                         sampling_blocks()[i]));
    s.push_back(make<tool>("tool", "Tool", full_tool(), V1, V5, {}, [](tool& t, revision r) {
        if (r != V4) t.execution.reset();
    }));
    s.push_back(make("tool_annotations", "ToolAnnotations", *full_tool().annotations, V2));
    s.push_back(make<call_tool_request>("call_tool_request", "CallToolRequest.params",
                                        call_tool_request{"echo", json::object{{"x", "1"}}, meta_obj(),
                                                          json::object{{"ttl", 1000}},
                                                          json::object{{"k", json::object{}}}, "state"},
                                        V1, V5, {}, [](call_tool_request& c, revision r) {
                                            if (r != V4) c.task.reset();
                                            if (r != V5) c.input_responses.reset(), c.request_state.reset();
                                        }));
    s.push_back(make("call_tool_result", "CallToolResult", full_call_result()));
    s.push_back(
        make<list_tools_result>("list_tools_result", "ListToolsResult",
                                list_tools_result{{full_tool()}, "next", 60000, "public", meta_obj()}, V1, V5,
                                {}, [](list_tools_result& l, revision) { l.tools[0].execution.reset(); }));
    s.push_back(make("resource", "Resource", full_resource()));
    s.push_back(make("resource_template", "ResourceTemplate", full_template()));
    s.push_back(
        make("read_resource_request", "ReadResourceRequest.params",
             read_resource_request{"file:///a", meta_obj(), json::object{{"k", json::object{}}}, "st"}));
    s.push_back(
        make("read_resource_result", "ReadResourceResult",
             read_resource_result{{text_resource_contents{"file:///a", "text/plain", "a", meta_obj()},
                                   blob_resource_contents{"file:///b", "image/png", "AAE=", meta_obj()}},
                                  0,
                                  "private",
                                  meta_obj()}));
    s.push_back(make("list_resources_result", "ListResourcesResult",
                     list_resources_result{{full_resource()}, "n", 5, "private", meta_obj()}));
    s.push_back(make("list_resource_templates_result", "ListResourceTemplatesResult",
                     list_resource_templates_result{{full_template()}, "n", 5, "private", meta_obj()}));
    s.push_back(make("subscribe_request", "SubscribeRequest.params",
                     subscribe_request{"file:///a", meta_obj()}, V1, V4));
    s.push_back(make("resource_updated", "ResourceUpdatedNotification.params",
                     resource_updated_notification{"file:///a", meta_obj()}));
    s.push_back(make("prompt", "Prompt", full_prompt()));
    s.push_back(make("prompt_argument", "PromptArgument", full_prompt().arguments[0]));
    for (std::size_t i = 0; i < all_blocks().size(); ++i)
        s.push_back(make("prompt_message_" + std::to_string(i), "PromptMessage",
                         prompt_message{role::assistant, all_blocks()[i]}));
    s.push_back(make("get_prompt_request", "GetPromptRequest.params",
                     get_prompt_request{"review", std::map<std::string, std::string>{{"code", "x"}},
                                        meta_obj(), json::object{{"k", json::object{}}}, "st"}));
    s.push_back(make("get_prompt_result", "GetPromptResult",
                     get_prompt_result{"desc", {prompt_message{role::user, text("hi")}}, meta_obj()}));
    s.push_back(make("list_prompts_result", "ListPromptsResult",
                     list_prompts_result{{full_prompt()}, "n", 5, "public", meta_obj()}));
    s.push_back(make<client_capabilities>("client_capabilities", "ClientCapabilities", full_client_caps(), V1,
                                          V5, {}, [](client_capabilities& c, revision r) {
                                              if (r == V5) c.tasks.reset(), c.roots->list_changed.reset();
                                              if (r == V4) c.extensions.reset();
                                          }));
    s.push_back(make<server_capabilities>("server_capabilities", "ServerCapabilities", full_server_caps(), V1,
                                          V5, {}, [](server_capabilities& c, revision r) {
                                              if (r == V5) c.tasks.reset();
                                              if (r == V4) c.extensions.reset();
                                          }));
    s.push_back(make<initialize_request>(
        "initialize_request", "InitializeRequest.params",
        initialize_request{"2025-11-25", full_client_caps(), full_impl(), meta_obj()}, V1, V4, {},
        [](initialize_request& i, revision) { i.capabilities.extensions.reset(); }));
    s.push_back(make<initialize_result>(
        "initialize_result", "InitializeResult",
        initialize_result{"2025-11-25", full_server_caps(), full_impl(), "Use tools", meta_obj()}, V1, V4, {},
        [](initialize_result& i, revision) { i.capabilities.extensions.reset(); }));
    s.push_back(make<discover_result>(
        "discover_result", "DiscoverResult",
        discover_result{{"2026-07-28"}, full_server_caps(), "hi", 100, "public", meta_obj()}, V5, V5, {},
        [](discover_result& d, revision) { d.capabilities.tasks.reset(); }));
    s.push_back(make("set_level", "SetLevelRequest.params",
                     set_level_request{logging_level::warning, meta_obj()}, V1, V4));
    s.push_back(
        make("logging_message", "LoggingMessageNotification.params",
             logging_message_notification{logging_level::error, "db", json::object{{"m", 1}}, meta_obj()}));
    s.push_back(
        make<progress_notification>("progress", "ProgressNotification.params",
                                    progress_notification{std::string("tok"), 0.5, 1.0, "half", meta_obj()}));
    s.push_back(make("cancelled", "CancelledNotification.params",
                     cancelled_notification{std::int64_t{7}, "user", meta_obj()}));
    s.push_back(make("complete_prompt", "CompleteRequest.params",
                     complete_request{prompt_reference{"review", "Review"},
                                      {"code", "x"},
                                      std::map<std::string, std::string>{{"lang", "c++"}},
                                      meta_obj()}));
    s.push_back(make("complete_resource", "CompleteRequest.params",
                     complete_request{resource_template_reference{"file:///{p}"},
                                      {"p", "a"},
                                      std::map<std::string, std::string>{{"q", "1"}},
                                      meta_obj()}));
    s.push_back(make("complete_result", "CompleteResult", complete_result{{"a", "b"}, 2, false, meta_obj()}));
    s.push_back(make("root", "Root", root{"file:///home", "home", meta_obj()}));
    s.push_back(
        make<list_roots_result>("list_roots_result", "ListRootsResult",
                                list_roots_result{{root{"file:///home", "home", meta_obj()}}, meta_obj()}, V1,
                                V5, {}, [](list_roots_result& l, revision) { l.meta.reset(); }));
    s.push_back(make("sampling_message", "SamplingMessage",
                     sampling_message{role::user, sampling_blocks(), meta_obj()}));
    s.push_back(make<create_message_request>("create_message_request", "CreateMessageRequest.params",
                                             full_create_message(), V1, V5, {"task"},
                                             [](create_message_request& c, revision r) {
                                                 if (r == V5) c.meta.reset();
                                                 c.tools[0].execution.reset();
                                                 if (r == V4) c.tools[0].execution = full_tool().execution;
                                             }));
    s.push_back(
        make("create_message_result", "CreateMessageResult",
             create_message_result{role::assistant, sampling_blocks(), "claude", "toolUse", meta_obj()}));
    s.push_back(make("elicit_form", "ElicitRequest.params", form_elicitation("Name?", object_schema()), V3));
    s.push_back(make<elicit_request>("elicit_url", "ElicitRequest.params",
                                     url_elicitation("Log in", "https://example.com/login", "e1"), V4, V5, {},
                                     [](elicit_request& e, revision r) {
                                         if (r == V5) e.elicitation_id.reset();
                                     }));
    s.push_back(make<elicit_result>(
        "elicit_result", "ElicitResult",
        elicit_result{elicit_action::accept,
                      json::object{{"name", "x"}, {"n", 3}, {"ok", true}, {"tags", json::array{"a"}}},
                      meta_obj()},
        V3, V5, {}, [](elicit_result& e, revision) { e.meta.reset(); }));
    s.push_back(make("elicitation_complete", "ElicitationCompleteNotification.params",
                     elicitation_complete_notification{"e1", meta_obj()}, V4, V4));
    s.push_back(make("paginated_request", "PaginatedRequest.params", paginated_request{"c", meta_obj()}));
    return s;
}

} // namespace

// ================================================================ schema conformance

// Every member name we emit, at any depth, exists in the revision's schema for that object
// (also const/enum values, JSON types and required members are checked along the way).
TEST(ProtocolSchema, EveryEmittedMemberIsDefinedByTheRevision) {
    int checked = 0;
    for (const auto& s : samples()) {
        for (auto r : all_revisions) {
            if (r < s.first || r > s.last) continue;
            const auto& d = schema(r);
            bool inline_params = false;
            const auto* target = target_schema(d, s.target, inline_params);
            ASSERT_NE(target, nullptr) << s.target << " missing in " << to_string(r);
            std::vector<std::string> errs;
            // Inline params of 2024-11-05 .. 2025-06-18 inherit `_meta` from Request/Notification.params.
            std::set<std::string> extra;
            if (inline_params) extra.insert("_meta");
            check(d, *target, s.encode(r), s.target, errs, extra);
            for (const auto& e : errs) ADD_FAILURE() << s.name << " @" << to_string(r) << ": " << e;
            ++checked;
        }
    }
    EXPECT_GT(checked, 150);
}

// Conversely, a fully populated object emits every top-level member the revision defines
// (except the few listed as not modelled), so nothing a revision defines is silently dropped.
TEST(ProtocolSchema, EveryDefinedTopLevelMemberIsEmitted) {
    int members = 0;
    for (const auto& s : samples()) {
        for (auto r : all_revisions) {
            if (r < s.first || r > s.last) continue;
            bool inline_params = false;
            const auto* target = target_schema(schema(r), s.target, inline_params);
            ASSERT_NE(target, nullptr);
            const auto* props = target->if_contains("properties");
            if (!props) continue; // a union (content blocks): covered by the test above
            auto wire = s.encode(r);
            for (const auto& kv : props->as_object()) {
                std::string k(kv.key());
                ++members;
                if (!wire.contains(k) && !s.unmodelled.count(k))
                    ADD_FAILURE() << s.name << " @" << to_string(r) << ": schema member " << k
                                  << " not emitted";
            }
        }
    }
    EXPECT_GT(members, 500);
}

// from_json(to_json(x)) == x (members the revision lacks stripped from the expectation).
TEST(ProtocolRoundTrip, NewestRevisionOfEachType) {
    for (const auto& s : samples()) s.roundtrip(s.last);
}

TEST(ProtocolRoundTrip, EveryContentBlockAtEveryRevisionThatDefinesIt) {
    for (const auto& b : all_blocks())
        for (auto r : {V4, V5}) EXPECT_EQ(from_json<content_block>(to_json(b, r)), b) << to_string(r);
}

// The checker itself: encodings for a newer revision must be rejected by an older schema.
TEST(ProtocolSchema, CheckerRejectsMembersOfNewerRevisions) {
    auto errors_for = [](revision schema_rev, const std::string& target, const json::object& wire) {
        bool inline_params = false;
        const auto* t = target_schema(schema(schema_rev), target, inline_params);
        std::vector<std::string> errs;
        check(schema(schema_rev), *t, wire, target, errs);
        return errs;
    };
    auto tool_errs = errors_for(V1, "Tool", to_json(full_tool(), V5));
    EXPECT_EQ(tool_errs.size(), 5u); // title, outputSchema, annotations, icons, _meta
    EXPECT_FALSE(errors_for(V1, "CallToolResult", to_json(full_call_result(), V5)).empty());
    EXPECT_FALSE(errors_for(V4, "ClientCapabilities", to_json(full_client_caps(), V5)).empty());
    EXPECT_FALSE(errors_for(V5, "ClientCapabilities", to_json(full_client_caps(), V4)).empty());
    EXPECT_FALSE(
        errors_for(V5, "ListToolsResult", to_json(list_tools_result{}, V4)).empty()); // required ttlMs...
    EXPECT_FALSE(
        errors_for(V3, "CreateMessageResult",
                   to_json(create_message_result{role::assistant, sampling_blocks(), "m", {}, {}}, V4))
            .empty());
}

// ================================================================ golden presence / absence

bool has(const json::object& o, std::string_view k) {
    return o.contains(k);
}

TEST(ProtocolGolden, ToolFieldsPerRevision) {
    auto t = full_tool();
    auto v1 = to_json(t, V1), v2 = to_json(t, V2), v3 = to_json(t, V3), v4 = to_json(t, V4),
         v5 = to_json(t, V5);
    for (const auto* k : {"title", "annotations", "outputSchema", "icons", "execution", "_meta"})
        EXPECT_FALSE(has(v1, k)) << k;
    EXPECT_TRUE(has(v2, "annotations"));
    EXPECT_FALSE(has(v2, "title"));
    for (const auto* k : {"title", "outputSchema", "_meta"}) EXPECT_TRUE(has(v3, k)) << k;
    EXPECT_FALSE(has(v3, "icons"));
    EXPECT_TRUE(has(v4, "icons"));
    EXPECT_TRUE(has(v4, "execution"));
    EXPECT_TRUE(has(v5, "icons"));
    EXPECT_FALSE(has(v5, "execution"));
    EXPECT_EQ(v4.at("annotations").at("readOnlyHint"), true);
    EXPECT_EQ(v4.at("execution").at("taskSupport"), "optional");
}

TEST(ProtocolGolden, ContentDowngrade) {
    auto r1 = to_json(full_call_result(), V1);
    const auto& c1 = r1.at("content").as_array();
    ASSERT_EQ(c1.size(), 6u);
    EXPECT_EQ(c1[2].at("type"), "text"); // audio
    EXPECT_NE(std::string(c1[2].at("text").as_string()).find("audio/wav"), std::string::npos);
    EXPECT_EQ(c1[3].at("type"), "text"); // resource_link
    EXPECT_NE(std::string(c1[3].at("text").as_string()).find("file:///a.txt"), std::string::npos);
    EXPECT_FALSE(has(r1, "structuredContent"));
    EXPECT_FALSE(has(c1[0].as_object(), "_meta"));
    EXPECT_FALSE(has(c1[0].at("annotations").as_object(), "lastModified"));
    auto r2 = to_json(full_call_result(), V2);
    EXPECT_EQ(r2.at("content").as_array()[2].at("type"), "audio");
    EXPECT_EQ(r2.at("content").as_array()[3].at("type"), "text");
    auto r3 = to_json(full_call_result(), V3);
    EXPECT_EQ(r3.at("content").as_array()[3].at("type"), "resource_link");
    EXPECT_FALSE(has(r3.at("content").as_array()[3].as_object(), "icons"));
    EXPECT_TRUE(has(r3, "structuredContent"));
    EXPECT_FALSE(has(r3, "resultType"));
    EXPECT_TRUE(has(r3.at("content").as_array()[0].at("annotations").as_object(), "lastModified"));
    EXPECT_TRUE(has(r3.at("content").as_array()[3].as_object(), "_meta"));
    auto r5 = to_json(full_call_result(), V5);
    EXPECT_EQ(r5.at("resultType"), "complete");
    EXPECT_TRUE(has(r5.at("content").as_array()[3].as_object(), "icons"));
}

TEST(ProtocolGolden, StructuredContentFallsBackToTextBefore20250618) {
    call_tool_result r{{}, json::object{{"temp", 21.5}}, std::nullopt, std::nullopt};
    auto v1 = to_json(r, V1);
    ASSERT_EQ(v1.at("content").as_array().size(), 1u);
    EXPECT_EQ(v1.at("content").as_array()[0].at("text"), "{\"temp\":21.5}");
    auto v3 = to_json(r, V3);
    EXPECT_TRUE(v3.at("content").as_array().empty());
    EXPECT_EQ(v3.at("structuredContent").at("temp"), 21.5);
    call_tool_result arr{{}, json::array{1, 2}, std::nullopt, std::nullopt};
    EXPECT_FALSE(has(to_json(arr, V4), "structuredContent")); // object only before 2026-07-28
    EXPECT_TRUE(has(to_json(arr, V5), "structuredContent"));
}

TEST(ProtocolGolden, ImplementationAndCapabilities) {
    auto i = full_impl();
    EXPECT_EQ(to_json(i, V1), (json::object{{"name", "srv"}, {"version", "1.2.3"}}));
    EXPECT_TRUE(has(to_json(i, V3), "title"));
    EXPECT_FALSE(has(to_json(i, V3), "websiteUrl"));
    EXPECT_TRUE(has(to_json(i, V4), "websiteUrl"));
    EXPECT_TRUE(has(to_json(i, V4), "icons"));

    auto c = full_client_caps();
    auto c2 = to_json(c, V2), c3 = to_json(c, V3), c4 = to_json(c, V4), c5 = to_json(c, V5);
    EXPECT_FALSE(has(c2, "elicitation"));
    EXPECT_EQ(c2.at("sampling"), json::object{});
    EXPECT_EQ(c3.at("elicitation"), json::object{});
    EXPECT_EQ(c4.at("elicitation"), (json::object{{"form", json::object{}}, {"url", json::object{}}}));
    EXPECT_TRUE(has(c4.at("sampling").as_object(), "tools"));
    EXPECT_TRUE(has(c4, "tasks"));
    EXPECT_FALSE(has(c4, "extensions"));
    EXPECT_FALSE(has(c5, "tasks"));
    EXPECT_TRUE(has(c5, "extensions"));
    EXPECT_EQ(c4.at("roots"), (json::object{{"listChanged", true}}));
    EXPECT_EQ(c5.at("roots"), json::object{});

    auto s = full_server_caps();
    EXPECT_FALSE(has(to_json(s, V1), "completions"));
    EXPECT_TRUE(has(to_json(s, V2), "completions"));
    EXPECT_TRUE(has(to_json(s, V4), "tasks"));
    EXPECT_FALSE(has(to_json(s, V5), "tasks"));
    EXPECT_TRUE(has(to_json(s, V5), "extensions"));
}

TEST(ProtocolGolden, CacheableResultsAndResultType) {
    list_tools_result l{{}, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
    EXPECT_EQ(to_json(l, V4), (json::object{{"tools", json::array{}}}));
    auto v5 = to_json(l, V5);
    EXPECT_EQ(v5.at("ttlMs"), 0);
    EXPECT_EQ(v5.at("cacheScope"), "private");
    EXPECT_EQ(v5.at("resultType"), "complete");
    EXPECT_FALSE(has(to_json(create_message_result{}, V5), "resultType")); // a client result
}

TEST(ProtocolGolden, UtilitiesPerRevision) {
    progress_notification p{std::int64_t{3}, 1, 2.0, "x", std::nullopt};
    EXPECT_FALSE(has(to_json(p, V1), "message"));
    EXPECT_TRUE(has(to_json(p, V2), "message"));
    EXPECT_EQ(to_json(p, V2).at("progressToken"), 3);
    complete_request c{
        prompt_reference{"p", "P"}, {"a", "b"}, std::map<std::string, std::string>{{"x", "y"}}, std::nullopt};
    EXPECT_FALSE(has(to_json(c, V2), "context"));
    EXPECT_FALSE(has(to_json(c, V2).at("ref").as_object(), "title"));
    EXPECT_EQ(to_json(c, V3).at("context").at("arguments").at("x"), "y");
}

TEST(ProtocolGolden, CompletionValuesAreCappedAt100) {
    complete_result r;
    for (int i = 0; i < 150; ++i) r.values.push_back("v" + std::to_string(i));
    auto c = to_json(r, V4).at("completion").as_object();
    EXPECT_EQ(c.at("values").as_array().size(), 100u);
    EXPECT_EQ(c.at("total"), 150);
    EXPECT_EQ(c.at("hasMore"), true);
}

TEST(ProtocolGolden, SamplingPerRevision) {
    auto req = full_create_message();
    auto v3 = to_json(req, V3), v4 = to_json(req, V4), v5 = to_json(req, V5);
    EXPECT_FALSE(has(v3, "tools"));
    EXPECT_FALSE(has(v3, "toolChoice"));
    EXPECT_TRUE(v3.at("messages").as_array()[0].at("content").is_object()); // one block before 2025-11-25
    EXPECT_TRUE(has(v4, "tools"));
    EXPECT_EQ(v4.at("toolChoice").at("mode"), "auto");
    EXPECT_TRUE(v4.at("messages").as_array()[0].at("content").is_array());
    EXPECT_TRUE(has(v4, "_meta"));
    EXPECT_FALSE(has(v5, "_meta"));
    EXPECT_EQ(v4.at("includeContext"), "thisServer");

    create_message_result r{
        role::assistant, {text_content{"a", {}, {}}, text_content{"b", {}, {}}}, "m", "endTurn", {}};
    EXPECT_EQ(to_json(r, V3).at("content"), (json::object{{"type", "text"}, {"text", "a\nb"}}));
    create_message_result tu{role::assistant, {tool_use_content{"u", "echo", {}, {}}}, "m", "toolUse", {}};
    EXPECT_EQ(to_json(tu, V3).at("content").at("type"), "text");
    EXPECT_EQ(to_json(tu, V4).at("content").at("type"), "tool_use");
}

TEST(ProtocolGolden, ElicitationPerRevision) {
    auto form = form_elicitation("Name?", object_schema());
    EXPECT_FALSE(has(to_json(form, V3), "mode"));
    EXPECT_EQ(to_json(form, V4).at("mode"), "form");
    auto url = url_elicitation("Log in", "https://example.com", "e1");
    try {
        (void)to_json(url, V3);
        FAIL() << "URL mode must not be encodable for 2025-06-18";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), error_code::invalid_params);
    }
    EXPECT_EQ(to_json(url, V4).at("elicitationId"), "e1");
    EXPECT_FALSE(has(to_json(url, V5), "elicitationId"));
    elicit_result res{elicit_action::accept, json::object{{"a", "x"}, {"tags", json::array{"t"}}},
                      meta_obj()};
    EXPECT_FALSE(has(to_json(res, V3).at("content").as_object(), "tags"));
    EXPECT_TRUE(has(to_json(res, V4).at("content").as_object(), "tags"));
    EXPECT_TRUE(has(to_json(res, V4), "_meta"));
    EXPECT_FALSE(has(to_json(res, V5), "_meta"));
}

TEST(ProtocolGolden, HelpersAndLogging) {
    auto e = error_result("boom");
    EXPECT_EQ(to_json(e, V1),
              (json::object{{"content", json::array{json::object{{"type", "text"}, {"text", "boom"}}}},
                            {"isError", true}}));
    EXPECT_EQ(*text_of(text("x")), "x");
    EXPECT_EQ(to_json(image("aGk=", "image/png"), V1).at("mimeType"), "image/png");
    EXPECT_EQ(to_json(embedded_text("file:///a", "t"), V1).at("resource").at("text"), "t");
    EXPECT_EQ(to_json(link_to("file:///a", "a"), V3).at("type"), "resource_link");
    for (int i = 0; i < 8; ++i) {
        auto l = static_cast<logging_level>(i);
        EXPECT_EQ(parse_logging_level(to_string(l)), l);
    }
    EXPECT_FALSE(parse_logging_level("verbose"));
    EXPECT_TRUE(admits(logging_level::warning, logging_level::error));
    EXPECT_FALSE(admits(logging_level::warning, logging_level::info));
    EXPECT_TRUE(logging_level::debug < logging_level::emergency);
}

TEST(ProtocolCodec, DefinesTable) {
    EXPECT_FALSE(defines(V2, wire_field::title));
    EXPECT_TRUE(defines(V3, wire_field::title));
    EXPECT_TRUE(defines(V4, wire_field::tasks));
    EXPECT_FALSE(defines(V5, wire_field::tasks));
    EXPECT_FALSE(defines(V4, wire_field::result_type));
    EXPECT_TRUE(defines(V5, wire_field::result_type));
}
