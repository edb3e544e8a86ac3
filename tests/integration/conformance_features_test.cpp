// The features of the conformance server (examples/conformance/scenarios.hpp) checked the way
// the official suite's 2025-11-25 server scenarios check them, and more strictly (exact names,
// texts, content types, notifications, the requests sent to the client and their schemas), with
// our client over the in-memory transport. Every message either side emits must conform to the
// 2025-11-25 schema. The HTTP legs are covered by tests/conformance/run.sh (the suite itself).
#include <mcp/client/client.hpp>
#include <mcp/json/base64.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include "elicitation_defaults.hpp"
#include "scenarios.hpp"
#include "support/wire_schema.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

using namespace std::chrono_literals;
using mcp::json::array;
using mcp::json::object;
using mcp::json::value;

namespace {

mcp::json::value parse(std::string_view text) {
    boost::system::error_code ec;
    auto v = mcp::parse_json(text, ec);
    EXPECT_FALSE(ec) << text;
    return v ? *v : value();
}

std::string text_at(const mcp::call_tool_result& r, std::size_t i = 0) {
    if (i >= r.content.size()) return "<no content " + std::to_string(i) + ">";
    const std::string* t = mcp::text_of(r.content[i]);
    return t ? *t : "<not text>";
}

/// Waits (bounded) until `pred` holds.
template <class Pred> bool eventually(Pred pred, std::chrono::milliseconds limit = 2000ms) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!pred()) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(2ms);
    }
    return true;
}

class conformance_features : public ::testing::Test {
protected:
    conformance_features() : rec_(mcp::revision::v2025_11_25) {}

    void SetUp() override {
        auto so = conformance::server_options();
        so.session.trace = true;
        so.session.trace_sink = [this](const mcp::trace_event& e) {
            if (e.dir == mcp::trace_event::direction::out) rec_.record(0, e.message);
        };
        server_ = std::make_unique<mcp::server>(so);
        conformance::add_conformance_features(*server_);

        // The 2025-11-25 server scenarios, so the initialize era (every message is checked
        // against that revision's schema).
        mcp::client_options co{.info = {.name = "conformance-test-client", .version = "1.0.0"},
                               .protocol_version = mcp::revision::v2025_11_25};
        co.session.trace = true;
        co.session.trace_sink = [this](const mcp::trace_event& e) {
            if (e.dir == mcp::trace_event::direction::out)
                rec_.record(1, e.message);
            else {
                std::lock_guard lock(mu_);
                received_.push_back(std::string(e.message));
            }
        };
        client_ = std::make_unique<mcp::client>(co);
        client_->set_sampling_handler([this](const mcp::create_message_request& r, mcp::request_context&) {
            {
                std::lock_guard lock(mu_);
                sampling_requests_.push_back(r);
            }
            return mcp::create_message_result{
                .role = mcp::role::assistant,
                .content = {mcp::text_content{.text = "This is a test response from the client"}},
                .model = "test-model",
                .stop_reason = "endTurn"};
        });
        client_->set_elicitation_handler([this](const mcp::elicit_request& r, mcp::request_context&) {
            std::lock_guard lock(mu_);
            elicit_requests_.push_back(r);
            return elicit_answer_ ? elicit_answer_(r)
                                  : mcp::elicit_result{.action = mcp::elicit_action::decline};
        });
        client_->on_log_message([this](const mcp::logging_message_notification& n) {
            std::lock_guard lock(mu_);
            logs_.push_back(n);
        });
        client_->on_resource_updated([this](const std::string& uri) {
            std::lock_guard lock(mu_);
            updated_.push_back(uri);
        });
        auto [a, b] = mcp::memory_transport::create_pair();
        server_->connect(a);
        client_->connect(b);
    }

    void TearDown() override {
        client_->close();
        for (const auto& p : rec_.problems()) {
            if (!tolerated_.empty() && p.find(tolerated_) != std::string::npos) continue;
            ADD_FAILURE() << p;
        }
    }

    mcp::call_tool_result call(const std::string& name, object args = {}, mcp::call_options o = {}) {
        return client_->call_tool(name, std::move(args), std::move(o));
    }

    /// The notifications with `method` the client received, params only.
    std::vector<object> received(std::string_view method) {
        std::lock_guard lock(mu_);
        std::vector<object> out;
        for (const auto& m : received_) {
            const value v = parse(m);
            if (!v.is_object()) continue;
            const auto meth = mcp::find_string(v.get_object(), "method");
            if (meth && *meth == method && !v.get_object().contains("id")) {
                const auto* p = mcp::find_object(v.get_object(), "params");
                out.push_back(p ? *p : object{});
            }
        }
        return out;
    }

    template <class T> std::vector<T> copy(const std::vector<T>& v) {
        std::lock_guard lock(mu_);
        return v;
    }

    mcp::test::wire_recorder rec_;
    std::unique_ptr<mcp::server> server_;
    std::unique_ptr<mcp::client> client_;
    std::mutex mu_;
    std::vector<std::string> received_;
    std::vector<mcp::create_message_request> sampling_requests_;
    std::vector<mcp::elicit_request> elicit_requests_;
    std::function<mcp::elicit_result(const mcp::elicit_request&)> elicit_answer_;
    std::vector<mcp::logging_message_notification> logs_;
    std::vector<std::string> updated_;
    /// A wire-schema finding this test expects (see sep1034_client_side_defaults_...).
    std::string tolerated_;
};

// ---- server-initialize, tools-list ---------------------------------------------------------------

TEST_F(conformance_features, declares_every_capability_the_scenarios_use) {
    const auto& init = client_->server();
    EXPECT_EQ(init.protocol_version, "2025-11-25");
    EXPECT_EQ(init.server_info.name, "mcpxx-conformance-server");
    EXPECT_FALSE(init.server_info.version.empty());
    const auto& caps = init.capabilities;
    EXPECT_TRUE(caps.tools.has_value());
    ASSERT_TRUE(caps.resources.has_value());
    EXPECT_TRUE(caps.resources->subscribe);
    EXPECT_TRUE(caps.prompts.has_value());
    EXPECT_TRUE(caps.logging);
    EXPECT_TRUE(caps.completions);
    client_->ping();
}

TEST_F(conformance_features, lists_every_scenario_tool_with_description_and_schema) {
    const auto tools = client_->list_all_tools();
    std::set<std::string> names;
    const std::regex spec_name("^[A-Za-z0-9_.-]{1,128}$"); // 2025-11-25 tool name rule (tools-name-format)
    for (const auto& t : tools) {
        names.insert(t.name);
        EXPECT_TRUE(std::regex_match(t.name, spec_name)) << t.name;
        EXPECT_FALSE(t.description.value_or("").empty()) << t.name;
        EXPECT_EQ(mcp::find_string(t.input_schema, "type").value_or(""), "object") << t.name;
    }
    // The tools the 2025-11-25 server scenarios call, then those the 2026-07-28 ones add.
    const std::set<std::string> expected{
        "test_simple_text", "test_image_content", "test_audio_content", "test_embedded_resource",
        "test_multiple_content_types", "test_tool_with_logging", "test_tool_with_progress",
        "test_error_handling", "test_sampling", "test_elicitation", "test_elicitation_sep1034_defaults",
        "test_elicitation_sep1330_enums", "json_schema_2020_12_tool", "test_reconnection",
        "test_resource_link", "test_trigger_resource_update",
        // 2026-07-28
        "test_header_params", "test_input_required_result_capabilities",
        "test_input_required_result_elicitation", "test_input_required_result_list_roots",
        "test_input_required_result_multi_round", "test_input_required_result_multiple_inputs",
        "test_input_required_result_request_state", "test_input_required_result_sampling",
        "test_input_required_result_tampered_state", "test_logging_tool", "test_missing_capability",
        "test_streaming_elicitation", "test_trigger_prompt_change", "test_trigger_tool_change"};
    EXPECT_EQ(names, expected);
}

TEST_F(conformance_features, json_schema_2020_12_tool_lists_its_schema_verbatim) {
    const auto tools = client_->list_all_tools();
    const mcp::tool* t = nullptr;
    for (const auto& x : tools)
        if (x.name == "json_schema_2020_12_tool") t = &x;
    ASSERT_NE(t, nullptr);
    const value expected = parse(R"({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                              "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                       "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                       "phone": {"type": "string"}, "email": {"type": "string"}},
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false})");
    EXPECT_EQ(value(t->input_schema), expected) << mcp::to_json(t->input_schema);

    // The schema is enforced: $ref into $defs, the conditional and additionalProperties.
    const auto ok = call("json_schema_2020_12_tool", object{{"name", "Ada"},
                                                            {"contactMethod", "phone"},
                                                            {"phone", "123"},
                                                            {"address", object{{"city", "London"}}}});
    EXPECT_FALSE(ok.is_error.value_or(false)) << text_at(ok);
    EXPECT_EQ(text_at(ok).rfind("JSON Schema 2020-12 tool called with: {", 0), 0u) << text_at(ok);
    EXPECT_TRUE(call("json_schema_2020_12_tool", object{{"contactMethod", "phone"}, {"email", "a@b"}})
                    .is_error.value_or(false));
    EXPECT_TRUE(
        call("json_schema_2020_12_tool", object{{"email", "a@b"}, {"extra", 1}}).is_error.value_or(false));
    EXPECT_TRUE(call("json_schema_2020_12_tool", object{{"email", "a@b"}, {"address", object{{"city", 7}}}})
                    .is_error.value_or(false));
}

// ---- tools-call-* content types ------------------------------------------------------------------

TEST_F(conformance_features, simple_text) {
    const auto r = call("test_simple_text");
    EXPECT_FALSE(r.is_error.value_or(false));
    ASSERT_EQ(r.content.size(), 1u);
    EXPECT_EQ(text_at(r), "This is a simple text response for testing.");
}

TEST_F(conformance_features, image_is_a_real_png) {
    const auto r = call("test_image_content");
    ASSERT_EQ(r.content.size(), 1u);
    const auto* img = std::get_if<mcp::image_content>(&r.content[0]);
    ASSERT_NE(img, nullptr);
    EXPECT_EQ(img->mime_type, "image/png");
    const std::string bytes = mcp::base64::decode(img->data).value_or("");
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST_F(conformance_features, audio_is_a_real_wav) {
    const auto r = call("test_audio_content");
    ASSERT_EQ(r.content.size(), 1u);
    const auto* audio = std::get_if<mcp::audio_content>(&r.content[0]);
    ASSERT_NE(audio, nullptr);
    EXPECT_EQ(audio->mime_type, "audio/wav");
    const std::string bytes = mcp::base64::decode(audio->data).value_or("");
    ASSERT_GE(bytes.size(), 44u);
    EXPECT_EQ(bytes.substr(0, 4), "RIFF");
    EXPECT_EQ(bytes.substr(8, 4), "WAVE");
}

TEST_F(conformance_features, embedded_resource) {
    const auto r = call("test_embedded_resource");
    ASSERT_EQ(r.content.size(), 1u);
    const auto* e = std::get_if<mcp::embedded_resource>(&r.content[0]);
    ASSERT_NE(e, nullptr);
    const auto* t = std::get_if<mcp::text_resource_contents>(&e->resource);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->uri, "test://embedded-resource");
    EXPECT_EQ(t->mime_type.value_or(""), "text/plain");
    EXPECT_EQ(t->text, "This is an embedded resource content.");
}

TEST_F(conformance_features, mixed_content_is_text_image_and_resource) {
    const auto r = call("test_multiple_content_types");
    ASSERT_EQ(r.content.size(), 3u);
    EXPECT_EQ(text_at(r, 0), "Multiple content types test:");
    const auto* img = std::get_if<mcp::image_content>(&r.content[1]);
    ASSERT_NE(img, nullptr);
    EXPECT_EQ(img->mime_type, "image/png");
    EXPECT_FALSE(img->data.empty());
    const auto* e = std::get_if<mcp::embedded_resource>(&r.content[2]);
    ASSERT_NE(e, nullptr);
    const auto* t = std::get_if<mcp::text_resource_contents>(&e->resource);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->uri, "test://mixed-content-resource");
    EXPECT_EQ(t->mime_type.value_or(""), "application/json");
    EXPECT_EQ(parse(t->text), parse(R"({"test":"data","value":123})"));
}

TEST_F(conformance_features, resource_link_points_at_a_readable_resource) {
    const auto r = call("test_resource_link");
    ASSERT_EQ(r.content.size(), 1u);
    const auto* link = std::get_if<mcp::resource_link>(&r.content[0]);
    ASSERT_NE(link, nullptr);
    EXPECT_EQ(link->uri, "test://static-text");
    EXPECT_EQ(link->name, "static-text");
    EXPECT_EQ(link->mime_type.value_or(""), "text/plain");
    EXPECT_EQ(client_->read_resource(link->uri).contents.size(), 1u);
}

TEST_F(conformance_features, error_tool_is_an_error_result_not_a_protocol_error) {
    const auto r = call("test_error_handling");
    EXPECT_TRUE(r.is_error.value_or(false));
    EXPECT_EQ(text_at(r), "This tool intentionally returns an error for testing");
}

// ---- tools-call-with-logging, logging-set-level, tools-call-with-progress ------------------------

TEST_F(conformance_features, logging_tool_sends_three_info_messages_during_the_call) {
    client_->set_logging_level(mcp::logging_level::debug);
    const auto r = call("test_tool_with_logging");
    EXPECT_EQ(text_at(r), "Tool with logging executed successfully");
    ASSERT_TRUE(eventually([&] { return copy(logs_).size() >= 3; }));
    const auto logs = copy(logs_);
    ASSERT_EQ(logs.size(), 3u);
    const char* expected[] = {"Tool execution started", "Tool processing data", "Tool execution completed"};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(logs[i].level, mcp::logging_level::info);
        EXPECT_EQ(logs[i].data, value(expected[i]));
    }
}

TEST_F(conformance_features, log_level_filters_the_tool_messages) {
    client_->set_logging_level(mcp::logging_level::warning);
    call("test_tool_with_logging");
    client_->ping(); // anything sent before the result has arrived by now
    std::this_thread::sleep_for(50ms);
    EXPECT_TRUE(copy(logs_).empty());
    client_->set_logging_level(mcp::logging_level::info);
    call("test_tool_with_logging");
    EXPECT_TRUE(eventually([&] { return copy(logs_).size() == 3; }));
}

TEST_F(conformance_features, progress_tool_reports_increasing_progress_on_the_callers_token) {
    // Exactly what tools-call-with-progress sends: its own token in params._meta.
    mcp::call_options o;
    o.meta = object{{"progressToken", "progress-test-1"}};
    const auto r = call("test_tool_with_progress", {}, o);
    EXPECT_EQ(text_at(r), "progress-test-1");
    const auto notes = received("notifications/progress");
    ASSERT_EQ(notes.size(), 3u);
    const double expected[] = {0, 50, 100};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(notes[i].at("progressToken"), value("progress-test-1"));
        EXPECT_EQ(notes[i].at("progress").to_number<double>(), expected[i]);
        EXPECT_EQ(notes[i].at("total").to_number<double>(), 100);
        EXPECT_EQ(notes[i].at("message"),
                  value("Completed step " + std::to_string(int(expected[i])) + " of 100"));
    }
}

TEST_F(conformance_features, progress_tool_through_the_client_api) {
    std::mutex m;
    std::vector<mcp::progress_update> updates;
    mcp::call_options o;
    o.on_progress = [&](const mcp::progress_update& u) {
        std::lock_guard lock(m);
        updates.push_back(u);
    };
    const auto r = call("test_tool_with_progress", {}, o);
    EXPECT_NE(text_at(r), "no progress token");
    std::lock_guard lock(m);
    ASSERT_EQ(updates.size(), 3u);
    EXPECT_EQ(updates[0].progress, 0);
    EXPECT_EQ(updates[1].progress, 50);
    EXPECT_EQ(updates[2].progress, 100);
    EXPECT_EQ(updates[2].total.value_or(0), 100);
}

TEST_F(conformance_features, progress_tool_without_a_token_sends_no_progress) {
    EXPECT_EQ(text_at(call("test_tool_with_progress")), "no progress token");
    EXPECT_TRUE(received("notifications/progress").empty());
}

// ---- tools-call-sampling, tools-call-elicitation, SEP-1034, SEP-1330 -----------------------------

TEST_F(conformance_features, sampling_round_trip) {
    const auto r = call("test_sampling", object{{"prompt", "Test prompt for sampling"}});
    EXPECT_FALSE(r.is_error.value_or(false)) << text_at(r);
    EXPECT_EQ(text_at(r), "LLM response: This is a test response from the client");
    const auto reqs = copy(sampling_requests_);
    ASSERT_EQ(reqs.size(), 1u);
    EXPECT_EQ(reqs[0].max_tokens, 100);
    ASSERT_EQ(reqs[0].messages.size(), 1u);
    EXPECT_EQ(reqs[0].messages[0].role, mcp::role::user);
    ASSERT_EQ(reqs[0].messages[0].content.size(), 1u);
    const auto* t = std::get_if<mcp::text_content>(&reqs[0].messages[0].content[0]);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->text, "Test prompt for sampling");
}

TEST_F(conformance_features, sampling_tool_needs_its_prompt) {
    EXPECT_TRUE(call("test_sampling").is_error.value_or(false));
    EXPECT_TRUE(copy(sampling_requests_).empty());
}

TEST_F(conformance_features, elicitation_round_trip) {
    elicit_answer_ = [](const mcp::elicit_request&) {
        return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                  .content = object{{"username", "testuser"}, {"email", "test@example.com"}}};
    };
    const auto r = call("test_elicitation", object{{"message", "Please provide your information"}});
    EXPECT_EQ(text_at(r),
              R"(User response: action=accept, content={"username":"testuser","email":"test@example.com"})");
    const auto reqs = copy(elicit_requests_);
    ASSERT_EQ(reqs.size(), 1u);
    EXPECT_EQ(reqs[0].mode, mcp::elicitation_mode::form);
    EXPECT_EQ(reqs[0].message, "Please provide your information");
    const object& s = reqs[0].requested_schema;
    EXPECT_EQ(s.at("type"), value("object"));
    EXPECT_EQ(s.at("properties").at("username").at("type"), value("string"));
    EXPECT_EQ(s.at("properties").at("username").at("description"), value("User's response"));
    EXPECT_EQ(s.at("properties").at("email").at("type"), value("string"));
    EXPECT_EQ(s.at("properties").at("email").at("description"), value("User's email address"));
    std::set<std::string> required;
    for (const auto& n : s.at("required").as_array()) required.insert(std::string(n.as_string()));
    EXPECT_EQ(required, (std::set<std::string>{"username", "email"}));
}

TEST_F(conformance_features, elicitation_decline_and_bad_answers) {
    const auto declined = call("test_elicitation", object{{"message", "m"}});
    EXPECT_EQ(text_at(declined), "User response: action=decline, content={}");
    elicit_answer_ = [](const mcp::elicit_request&) {
        return mcp::elicit_result{.action = mcp::elicit_action::accept, .content = object{{"username", "u"}}};
    };
    const auto incomplete = call("test_elicitation", object{{"message", "m"}});
    EXPECT_TRUE(incomplete.is_error.value_or(false)) << text_at(incomplete); // email is required
}

TEST_F(conformance_features, sep1034_every_primitive_has_its_default) {
    elicit_answer_ = [](const mcp::elicit_request&) {
        return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                  .content = object{{"name", "Jane Smith"},
                                                    {"age", 25},
                                                    {"score", 88},
                                                    {"status", "inactive"},
                                                    {"verified", false}}};
    };
    const auto r = call("test_elicitation_sep1034_defaults");
    EXPECT_FALSE(r.is_error.value_or(false)) << text_at(r);
    const std::string prefix = "Elicitation completed: action=accept, content=";
    ASSERT_EQ(text_at(r).rfind(prefix, 0), 0u) << text_at(r);
    value answer = parse(text_at(r).substr(prefix.size()));
    ASSERT_TRUE(answer.is_object()) << text_at(r);
    EXPECT_EQ(answer.as_object().at("score").to_number<double>(), 88); // a double member: 88.0
    answer.as_object().erase("score");
    EXPECT_EQ(answer, parse(R"({"name":"Jane Smith","age":25,"status":"inactive","verified":false})"));

    const auto reqs = copy(elicit_requests_);
    ASSERT_EQ(reqs.size(), 1u);
    EXPECT_EQ(reqs[0].message, "Please review and update the form fields with defaults");
    const object& props = reqs[0].requested_schema.at("properties").as_object();
    EXPECT_EQ(props.at("name").at("type"), value("string"));
    EXPECT_EQ(props.at("name").at("default"), value("John Doe"));
    EXPECT_EQ(props.at("age").at("type"), value("integer"));
    EXPECT_EQ(props.at("age").at("default"), value(30));
    EXPECT_EQ(props.at("score").at("type"), value("number"));
    EXPECT_EQ(props.at("score").at("default").to_number<double>(), 95.5);
    EXPECT_EQ(props.at("status").at("type"), value("string"));
    EXPECT_EQ(props.at("status").at("enum"), parse(R"(["active","inactive","pending"])"));
    EXPECT_EQ(props.at("status").at("default"), value("active"));
    EXPECT_EQ(props.at("verified").at("type"), value("boolean"));
    EXPECT_EQ(props.at("verified").at("default"), value(true));
    for (const char* f : {"name", "age", "score", "status", "verified"})
        EXPECT_FALSE(props.at(f).as_object().if_contains("description") == nullptr) << f;
    // Every field has a default, so none is required.
    if (const auto* req = reqs[0].requested_schema.if_contains("required")) {
        EXPECT_TRUE(req->as_array().empty());
    }
}

TEST_F(conformance_features, sep1034_client_side_defaults_fill_an_untouched_form) {
    // What conformance_client does in elicitation-sep1034-client-defaults: accept the form as is.
    // The answer carries score 95.5, which SEP-1034 and that scenario require (a "number" field)
    // but which 2025-11-25 schema.json does not admit: it types ElicitResult.content values as
    // string | integer | boolean | string[] (schema.ts says number). That one finding is expected.
    tolerated_ = "result vs ElicitResult: at '/content/score'";
    elicit_answer_ = [](const mcp::elicit_request& r) {
        return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                  .content = conformance::with_schema_defaults(r.requested_schema, object{})};
    };
    const auto r = call("test_elicitation_sep1034_defaults");
    const std::string prefix = "Elicitation completed: action=accept, content=";
    ASSERT_EQ(text_at(r).rfind(prefix, 0), 0u) << text_at(r);
    EXPECT_EQ(parse(text_at(r).substr(prefix.size())),
              parse(R"({"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true})"))
        << text_at(r);
}

TEST_F(conformance_features, sep1330_the_five_enum_forms) {
    elicit_answer_ = [](const mcp::elicit_request&) {
        return mcp::elicit_result{
            .action = mcp::elicit_action::accept,
            .content = parse(R"({"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1",
                                                       "untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]})")
                           .as_object()};
    };
    const auto r = call("test_elicitation_sep1330_enums");
    EXPECT_EQ(
        text_at(r).rfind("Elicitation completed: action=accept, content={\"untitledSingle\":\"option1\"", 0),
        0u)
        << text_at(r);
    const auto reqs = copy(elicit_requests_);
    ASSERT_EQ(reqs.size(), 1u);
    EXPECT_EQ(reqs[0].message, "Please select options from the enum fields");
    const object& p = reqs[0].requested_schema.at("properties").as_object();

    const object& us = p.at("untitledSingle").as_object();
    EXPECT_EQ(us.at("type"), value("string"));
    EXPECT_EQ(us.at("enum"), parse(R"(["option1","option2","option3"])"));
    EXPECT_FALSE(us.contains("oneOf") || us.contains("enumNames"));

    const object& ts = p.at("titledSingle").as_object();
    EXPECT_EQ(ts.at("type"), value("string"));
    EXPECT_EQ(ts.at("oneOf"),
              parse(R"([{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},
                                        {"const":"value3","title":"Third Option"}])"));
    EXPECT_FALSE(ts.contains("enum"));

    const object& le = p.at("legacyEnum").as_object();
    EXPECT_EQ(le.at("type"), value("string"));
    EXPECT_EQ(le.at("enum"), parse(R"(["opt1","opt2","opt3"])"));
    EXPECT_EQ(le.at("enumNames"), parse(R"(["Option One","Option Two","Option Three"])"));

    const object& um = p.at("untitledMulti").as_object();
    EXPECT_EQ(um.at("type"), value("array"));
    EXPECT_EQ(um.at("items"), parse(R"({"type":"string","enum":["option1","option2","option3"]})"));

    const object& tm = p.at("titledMulti").as_object();
    EXPECT_EQ(tm.at("type"), value("array"));
    EXPECT_EQ(
        tm.at("items"),
        parse(
            R"({"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},
                                                  {"const":"value3","title":"Third Choice"}]})"));
    EXPECT_FALSE(tm.at("items").as_object().contains("enum"));
}

TEST_F(conformance_features, reconnection_tool_answers) {
    const auto r = call("test_reconnection");
    EXPECT_FALSE(r.is_error.value_or(false));
    EXPECT_NE(text_at(r).find("Reconnection test completed successfully"), std::string::npos);
}

// ---- resources-* ---------------------------------------------------------------------------------

TEST_F(conformance_features, lists_resources_and_the_template) {
    const auto resources = client_->list_all_resources();
    std::map<std::string, mcp::resource> by_uri;
    for (const auto& r : resources) by_uri[r.uri] = r;
    ASSERT_EQ(by_uri.size(), 3u);
    EXPECT_EQ(by_uri.at("test://static-text").name, "static-text");
    EXPECT_EQ(by_uri.at("test://static-text").mime_type.value_or(""), "text/plain");
    EXPECT_EQ(by_uri.at("test://static-binary").name, "static-binary");
    EXPECT_EQ(by_uri.at("test://static-binary").mime_type.value_or(""), "image/png");
    EXPECT_EQ(by_uri.at("test://watched-resource").name, "watched-resource");
    for (const auto& [uri, r] : by_uri) EXPECT_FALSE(r.description.value_or("").empty()) << uri;

    const auto templates = client_->list_all_resource_templates();
    ASSERT_EQ(templates.size(), 1u);
    EXPECT_EQ(templates[0].uri_template, "test://template/{id}/data");
    EXPECT_EQ(templates[0].name, "template");
    EXPECT_EQ(templates[0].mime_type.value_or(""), "application/json");
}

TEST_F(conformance_features, reads_text_binary_and_template_resources) {
    const auto text = client_->read_resource("test://static-text");
    ASSERT_EQ(text.contents.size(), 1u);
    const auto* t = std::get_if<mcp::text_resource_contents>(&text.contents[0]);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->uri, "test://static-text");
    EXPECT_EQ(t->mime_type.value_or(""), "text/plain");
    EXPECT_EQ(t->text, "This is the content of the static text resource.");

    const auto binary = client_->read_resource("test://static-binary");
    ASSERT_EQ(binary.contents.size(), 1u);
    const auto* b = std::get_if<mcp::blob_resource_contents>(&binary.contents[0]);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->uri, "test://static-binary");
    EXPECT_EQ(b->mime_type.value_or(""), "image/png");
    EXPECT_EQ(mcp::base64::decode(b->blob).value_or("").substr(1, 3), "PNG");

    const auto templ = client_->read_resource("test://template/123/data");
    ASSERT_EQ(templ.contents.size(), 1u);
    const auto* j = std::get_if<mcp::text_resource_contents>(&templ.contents[0]);
    ASSERT_NE(j, nullptr);
    EXPECT_EQ(j->uri, "test://template/123/data");
    EXPECT_EQ(j->mime_type.value_or(""), "application/json");
    EXPECT_EQ(parse(j->text), parse(R"({"id":"123","templateTest":true,"data":"Data for ID: 123"})"));

    try {
        client_->read_resource("test://nonexistent-resource-for-conformance-testing");
        ADD_FAILURE() << "expected an error for a resource that does not exist";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::resource_not_found);
    }
}

TEST_F(conformance_features, subscribe_gets_updates_until_unsubscribed) {
    client_->subscribe("test://watched-resource");
    call("test_trigger_resource_update");
    ASSERT_TRUE(eventually([&] { return copy(updated_).size() == 1; }));
    EXPECT_EQ(copy(updated_)[0], "test://watched-resource");
    client_->unsubscribe("test://watched-resource");
    call("test_trigger_resource_update");
    client_->ping();
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(copy(updated_).size(), 1u);
}

// ---- prompts-*, completion-complete --------------------------------------------------------------

TEST_F(conformance_features, lists_the_prompts_with_their_arguments) {
    const auto prompts = client_->list_all_prompts();
    std::map<std::string, mcp::prompt> by_name;
    for (const auto& p : prompts) by_name[p.name] = p;
    ASSERT_EQ(by_name.size(), 5u); // four of 2025-11-25, test_input_required_result_prompt of 2026-07-28
    EXPECT_TRUE(by_name.count("test_input_required_result_prompt"));
    for (const auto& [name, p] : by_name) EXPECT_FALSE(p.description.value_or("").empty()) << name;
    EXPECT_TRUE(by_name.at("test_simple_prompt").arguments.empty());
    EXPECT_TRUE(by_name.at("test_prompt_with_image").arguments.empty());
    const auto& args = by_name.at("test_prompt_with_arguments").arguments;
    ASSERT_EQ(args.size(), 2u);
    EXPECT_EQ(args[0].name, "arg1");
    EXPECT_EQ(args[0].description.value_or(""), "First test argument");
    EXPECT_TRUE(args[0].required.value_or(false));
    EXPECT_EQ(args[1].name, "arg2");
    EXPECT_TRUE(args[1].required.value_or(false));
    const auto& embedded = by_name.at("test_prompt_with_embedded_resource").arguments;
    ASSERT_EQ(embedded.size(), 1u);
    EXPECT_EQ(embedded[0].name, "resourceUri");
    EXPECT_TRUE(embedded[0].required.value_or(false));
}

TEST_F(conformance_features, gets_every_prompt) {
    const auto simple = client_->get_prompt("test_simple_prompt");
    ASSERT_EQ(simple.messages.size(), 1u);
    EXPECT_EQ(simple.messages[0].role, mcp::role::user);
    EXPECT_EQ(*mcp::text_of(simple.messages[0].content), "This is a simple prompt for testing.");

    const auto with_args =
        client_->get_prompt("test_prompt_with_arguments", {{"arg1", "testValue1"}, {"arg2", "testValue2"}});
    ASSERT_EQ(with_args.messages.size(), 1u);
    EXPECT_EQ(*mcp::text_of(with_args.messages[0].content),
              "Prompt with arguments: arg1='testValue1', arg2='testValue2'");
    EXPECT_THROW(client_->get_prompt("test_prompt_with_arguments", {{"arg1", "only one"}}), mcp::error);

    const auto embedded = client_->get_prompt("test_prompt_with_embedded_resource",
                                              {{"resourceUri", "test://example-resource"}});
    ASSERT_EQ(embedded.messages.size(), 2u);
    const auto* e = std::get_if<mcp::embedded_resource>(&embedded.messages[0].content);
    ASSERT_NE(e, nullptr);
    const auto* t = std::get_if<mcp::text_resource_contents>(&e->resource);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->uri, "test://example-resource");
    EXPECT_EQ(t->mime_type.value_or(""), "text/plain");
    EXPECT_EQ(t->text, "Embedded resource content for testing.");
    EXPECT_EQ(*mcp::text_of(embedded.messages[1].content), "Please process the embedded resource above.");

    const auto image = client_->get_prompt("test_prompt_with_image");
    ASSERT_EQ(image.messages.size(), 2u);
    const auto* img = std::get_if<mcp::image_content>(&image.messages[0].content);
    ASSERT_NE(img, nullptr);
    EXPECT_EQ(img->mime_type, "image/png");
    EXPECT_EQ(img->data, conformance::png_1x1_base64);
    EXPECT_EQ(*mcp::text_of(image.messages[1].content), "Please analyze the image above.");
}

TEST_F(conformance_features, completes_arg1) {
    auto complete = [&](const std::string& v) {
        return client_->complete({.ref = mcp::prompt_reference{.name = "test_prompt_with_arguments"},
                                  .argument = {.name = "arg1", .value = v}});
    };
    EXPECT_EQ(complete("par").values, (std::vector<std::string>{"paris", "park", "party"}));
    EXPECT_EQ(complete("pari").values, (std::vector<std::string>{"paris"}));
    const auto none = complete("test"); // what completion-complete sends
    EXPECT_TRUE(none.values.empty());
    EXPECT_EQ(none.has_more.value_or(true), false);
    // arg2 has no completions: an empty answer, not an error.
    EXPECT_TRUE(client_
                    ->complete({.ref = mcp::prompt_reference{.name = "test_prompt_with_arguments"},
                                .argument = {.name = "arg2", .value = "x"}})
                    .values.empty());
}

// ---- the client-side helper ----------------------------------------------------------------------

TEST(elicitation_defaults, fills_only_missing_fields_that_have_defaults) {
    const object schema = parse(R"({"type":"object","properties":{
        "name":{"type":"string","default":"John Doe"},
        "age":{"type":"integer","default":30},
        "nickname":{"type":"string"},
        "verified":{"type":"boolean","default":true}}})")
                              .as_object();
    const object out = conformance::with_schema_defaults(schema, object{{"age", 41}, {"extra", "kept"}});
    EXPECT_EQ(value(out), parse(R"({"age":41,"extra":"kept","name":"John Doe","verified":true})"));
    EXPECT_EQ(value(conformance::with_schema_defaults(object{{"type", "object"}}, object{{"a", 1}})),
              parse(R"({"a":1})"));
}

} // namespace
