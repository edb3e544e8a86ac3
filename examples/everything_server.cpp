// everything_server: exercises every server feature of mcpxx, over stdio.
//
//   tools      echo, add (structured output), long_operation (progress), sample_llm (sampling),
//              ask_user (form elicitation), open_url (URL elicitation), list_roots (roots),
//              get_image / get_audio / get_resource_link / get_embedded_resource / annotated
//              (every content type), fail (tool error), log_messages (logging), toggle_extra_tool
//              (tools/list_changed), touch_resource (resources/updated), slow (cancellation)
//   typed      get_weather (arguments and structured result from C++ structs), book_table
//              (typed form elicitation), code_review (typed prompt, enum argument completed)
//   resources  test://static/resource/1..20 (odd: text, even: blob), paginated 10 per page;
//              template test://static/resource/{id} with completion of {id};
//              template weather://{city}/forecast{?days,unit} (query variables, JSON)
//   prompts    simple_prompt, complex_prompt (temperature required, style completed),
//              resource_prompt (embedded resource)
#include <mcp/auth/oauth_flags.hpp>
#include <mcp/http/server.hpp>
#include <mcp/json/base64.hpp>
#include <mcp/server/server.hpp>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstring>
#include <iostream>
#include <thread>

// ------------------------------------------------------------------ typed features
// Plain structs described once; schemas, validation and conversion follow from them.
namespace weather {

enum class units { celsius, fahrenheit };
MCP_DESCRIBE_ENUM(units, celsius, fahrenheit)

struct forecast_request {
    std::string city;
    int days = 3;
    std::optional<units> unit;
};
MCP_DESCRIBE(forecast_request, (city, "City name", mcp::field::min_length(1)),
             (days, "Days ahead", mcp::field::range(1, 7)), (unit, "Units (default: celsius)"))

struct day_forecast {
    int day = 0;
    std::string summary;
    double high = 0;
    double low = 0;
};
MCP_DESCRIBE(day_forecast, (day, "Day number, 1 = tomorrow"), (summary, "One line"),
             (high, "Highest temperature"), (low, "Lowest temperature"))

struct forecast {
    std::string city;
    units unit = units::celsius;
    std::vector<day_forecast> days;
};
MCP_DESCRIBE(forecast, (city, "City name"), (unit, "Units of the temperatures", mcp::field::required),
             (days, "One entry per day", mcp::field::required))

/// A deterministic made-up forecast (the same city always gets the same weather).
forecast make_forecast(const forecast_request& r) {
    const auto seed = static_cast<unsigned>(std::hash<std::string>{}(r.city) % 1000);
    const units unit = r.unit.value_or(units::celsius);
    forecast f{r.city, unit, {}};
    for (int d = 1; d <= r.days; ++d) {
        double high = 12 + static_cast<double>((seed + 7u * static_cast<unsigned>(d)) % 15);
        double low = high - 8;
        if (unit == units::fahrenheit) high = high * 9 / 5 + 32, low = low * 9 / 5 + 32;
        const char* sky[] = {"sunny", "cloudy", "rain", "windy", "snow"};
        f.days.push_back({d, sky[(seed + static_cast<unsigned>(d)) % 5], high, low});
    }
    return f;
}

enum class seating { indoor, terrace, bar };
MCP_DESCRIBE_ENUM(seating, indoor, terrace, bar)

struct reservation {
    std::string name;
    int party_size = 2;
    std::string date;
    seating where = seating::indoor;
    bool confirm = true;
};
MCP_DESCRIBE(reservation, (name, "Name for the booking", mcp::field::min_length(1)),
             (party_size, "Number of guests", mcp::field::range(1, 12)),
             (date, "Date", mcp::field::format("date")), (where, "Seating", mcp::field::optional),
             (confirm, "Confirm the booking"))

enum class language { cpp, python, rust, go, typescript };
MCP_DESCRIBE_ENUM(language, cpp, python, rust, go, typescript)

struct review_request {
    language lang = language::cpp;
    std::optional<std::string> focus;
    int max_comments = 10;
};
MCP_DESCRIBE(review_request, (lang, "Language of the code", mcp::field::required),
             (focus, "What to look at first"),
             (max_comments, "At most this many comments", mcp::field::range(1, 50)))

} // namespace weather

namespace {

using mcp::json::object;

const char* tiny_png =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

// A 10 ms, 8 kHz, 8-bit mono WAV of silence, built at run time.
std::string tiny_wav_base64() {
    const std::uint32_t samples = 80;
    std::string w = "RIFF";
    auto u32 = [&](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) w.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    };
    auto u16 = [&](std::uint16_t v) {
        for (int i = 0; i < 2; ++i) w.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    };
    u32(36 + samples);
    w += "WAVEfmt ";
    u32(16), u16(1), u16(1), u32(8000), u32(8000), u16(1), u16(8);
    w += "data";
    u32(samples);
    w.append(samples, static_cast<char>(128));
    return mcp::base64::encode(w);
}

std::string arg_string(const object& args, const char* name, std::string fallback = {}) {
    if (auto s = mcp::find_string(args, name)) return std::string(*s);
    return fallback;
}

object schema(object properties, std::initializer_list<const char*> required = {}) {
    object s{{"type", "object"}, {"properties", std::move(properties)}};
    if (required.size()) {
        mcp::json::array r;
        for (auto* n : required) r.emplace_back(n);
        s["required"] = std::move(r);
    }
    return s;
}

mcp::resource_contents static_contents(int id) {
    const std::string uri = "test://static/resource/" + std::to_string(id);
    if (id % 2)
        return mcp::text_resource_contents{
            .uri = uri, .mime_type = "text/plain", .text = "Resource " + std::to_string(id) + ": plain text"};
    return mcp::blob_resource_contents{
        .uri = uri,
        .mime_type = "application/octet-stream",
        .blob = mcp::base64::encode("Resource " + std::to_string(id) + ": binary")};
}

void add_tools(mcp::server& server) {
    server.add_tool({.name = "echo",
                     .title = "Echo",
                     .description = "Echo back the given text",
                     .input_schema = schema({{"text", {{"type", "string"}}}}, {"text"})},
                    [](const object& args, mcp::context&) {
                        return mcp::call_tool_result{.content = {mcp::text(arg_string(args, "text"))}};
                    });

    server.add_tool(
        {.name = "add",
         .title = "Add",
         .description = "Add two numbers",
         .input_schema = schema({{"a", {{"type", "number"}}}, {"b", {{"type", "number"}}}}, {"a", "b"}),
         .output_schema = schema({{"sum", {{"type", "number"}}}}, {"sum"}),
         .annotations = mcp::tool_annotations{.read_only_hint = true,
                                              .idempotent_hint = true,
                                              .open_world_hint = false}},
        [](const object& args, mcp::context&) {
            auto a = mcp::find_number(args, "a"), b = mcp::find_number(args, "b");
            if (!a || !b) return mcp::error_result("a and b must be numbers");
            object sc{{"sum", *a + *b}};
            return mcp::call_tool_result{.content = {mcp::text(mcp::to_json(sc))}, .structured_content = sc};
        });

    server.add_tool(
        {.name = "long_operation",
         .description = "Report progress over `steps` steps of `duration`/steps seconds",
         .input_schema = schema({{"duration", {{"type", "number"}, {"default", 1}}},
                                 {"steps", {{"type", "integer"}, {"default", 5}}}})},
        [](const object& args, mcp::context& ctx) {
            const double duration = mcp::find_number(args, "duration").value_or(1);
            const auto steps = mcp::find_int(args, "steps").value_or(5);
            for (std::int64_t i = 1; i <= steps; ++i) {
                if (ctx.cancelled()) return mcp::error_result("cancelled");
                std::this_thread::sleep_for(
                    std::chrono::duration<double>(duration / static_cast<double>(steps)));
                ctx.progress(static_cast<double>(i), static_cast<double>(steps), "step " + std::to_string(i));
            }
            return mcp::call_tool_result{
                .content = {mcp::text("Long operation completed: " + std::to_string(steps) + " steps")}};
        });

    server.add_tool(
        {.name = "slow",
         .description = "Wait until cancelled or `seconds` have passed",
         .input_schema = schema({{"seconds", {{"type", "number"}}}})},
        [](const object& args, mcp::context& ctx) {
            const auto until = std::chrono::steady_clock::now() +
                               std::chrono::duration<double>(mcp::find_number(args, "seconds").value_or(30));
            while (!ctx.cancelled() && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            return mcp::call_tool_result{.content = {mcp::text(ctx.cancelled() ? "cancelled" : "done")}};
        });

    server.add_tool(
        {.name = "sample_llm",
         .description = "Ask the client's model to answer `prompt`",
         .input_schema =
             schema({{"prompt", {{"type", "string"}}}, {"maxTokens", {{"type", "integer"}}}}, {"prompt"})},
        [](const object& args, mcp::context& ctx) {
            mcp::create_message_request req;
            req.messages.push_back({.role = mcp::role::user,
                                    .content = {mcp::text_content{.text = arg_string(args, "prompt")}}});
            req.max_tokens = mcp::find_int(args, "maxTokens").value_or(100);
            req.system_prompt = "You are a helpful assistant.";
            auto r = ctx.sample(req);
            std::string answer;
            for (const auto& c : r.content)
                if (auto* t = std::get_if<mcp::text_content>(&c)) answer += t->text;
            return mcp::call_tool_result{
                .content = {mcp::text("LLM sampling result (" + r.model + "): " + answer)}};
        });

    server.add_tool(
        {.name = "ask_user",
         .description = "Ask the user for their name and age (form elicitation)",
         .input_schema = schema({})},
        [](const object&, mcp::context& ctx) {
            auto r = ctx.elicit(
                "Please tell us about yourself",
                schema({{"name", {{"type", "string"}, {"title", "Name"}}},
                        {"age", {{"type", "integer"}, {"minimum", 0}}},
                        {"color",
                         {{"type", "string"}, {"enum", {"red", "green", "blue"}}, {"default", "blue"}}}},
                       {"name"}));
            std::string text = "User action: " + std::string(mcp::to_string(r.action));
            if (r.content) text += ", content: " + mcp::to_json(*r.content);
            return mcp::call_tool_result{.content = {mcp::text(text)}};
        });

    server.add_tool({.name = "open_url",
                     .description = "Ask the user to visit a URL (URL-mode elicitation)",
                     .input_schema = schema({{"url", {{"type", "string"}}}}, {"url"})},
                    [](const object& args, mcp::context& ctx) {
                        static std::atomic<int> counter{0};
                        const auto id = "elicit-" + std::to_string(++counter);
                        auto r = ctx.elicit(mcp::url_elicitation("Please complete this step in your browser",
                                                                 arg_string(args, "url"), id));
                        // The completion notice is an initialize-era message (2026-07-28 has
                        // neither sessions nor notifications/elicitation/complete).
                        if (r.action == mcp::elicit_action::accept && ctx.has_session())
                            ctx.session().notify_elicitation_complete(id);
                        return mcp::call_tool_result{
                            .content = {mcp::text("User action: " + std::string(mcp::to_string(r.action)))}};
                    });

    server.add_tool(
        {.name = "list_roots", .description = "List the client's roots", .input_schema = schema({})},
        [](const object&, mcp::context& ctx) {
            std::string text = "Roots:";
            for (const auto& r : ctx.roots()) text += "\n" + r.uri + (r.name ? " (" + *r.name + ")" : "");
            return mcp::call_tool_result{.content = {mcp::text(text)}};
        });

    server.add_tool(
        {.name = "get_image", .description = "Return a tiny PNG image", .input_schema = schema({})},
        [](const object&, mcp::context&) {
            return mcp::call_tool_result{
                .content = {mcp::text("A 1x1 PNG:"), mcp::image(tiny_png, "image/png")}};
        });

    static const std::string wav = tiny_wav_base64();
    server.add_tool(
        {.name = "get_audio", .description = "Return a short WAV clip", .input_schema = schema({})},
        [](const object&, mcp::context&) {
            return mcp::call_tool_result{.content = {mcp::audio(wav, "audio/wav")}};
        });

    server.add_tool(
        {.name = "get_resource_link", .description = "Return links to resources", .input_schema = schema({})},
        [](const object&, mcp::context&) {
            return mcp::call_tool_result{
                .content = {
                    mcp::link_to("test://static/resource/1", "Resource 1", "text/plain"),
                    mcp::link_to("test://static/resource/2", "Resource 2", "application/octet-stream")}};
        });

    server.add_tool({.name = "get_embedded_resource",
                     .description = "Return an embedded resource",
                     .input_schema = schema({})},
                    [](const object&, mcp::context&) {
                        return mcp::call_tool_result{
                            .content = {mcp::text("Embedded:"), mcp::content_block(mcp::embedded_resource{
                                                                    .resource = static_contents(1)})}};
                    });

    server.add_tool(
        {.name = "annotated", .description = "Return content with annotations", .input_schema = schema({})},
        [](const object&, mcp::context&) {
            mcp::text_content t{.text = "For the user, important",
                                .annotations = mcp::annotations{.audience = {mcp::role::user},
                                                                .priority = 0.9,
                                                                .last_modified = "2026-01-01T00:00:00Z"}};
            return mcp::call_tool_result{.content = {t}};
        });

    server.add_tool(
        {.name = "fail", .description = "Always fails (a tool execution error)", .input_schema = schema({})},
        [](const object&, mcp::context&) -> mcp::call_tool_result {
            throw std::runtime_error("this tool always fails");
        });

    server.add_tool(
        {.name = "log_messages", .description = "Send one log message per level", .input_schema = schema({})},
        [](const object&, mcp::context& ctx) {
            using L = mcp::logging_level;
            for (auto l :
                 {L::debug, L::info, L::notice, L::warning, L::error, L::critical, L::alert, L::emergency})
                ctx.log(l, object{{"message", std::string(mcp::to_string(l)) + " message"}}, "everything");
            return mcp::call_tool_result{.content = {mcp::text("logged")}};
        });
}

void add_dynamic_tools(mcp::server& server) {
    server.add_tool({.name = "toggle_extra_tool",
                     .description = "Add or remove the tool `extra` (tools/list_changed)",
                     .input_schema = schema({})},
                    [&server](const object&, mcp::context&) {
                        if (server.remove_tool("extra"))
                            return mcp::call_tool_result{.content = {mcp::text("removed extra")}};
                        server.add_tool({.name = "extra",
                                         .description = "A tool added at run time",
                                         .input_schema = schema({})},
                                        [](const object&, mcp::context&) {
                                            return mcp::call_tool_result{.content = {mcp::text("extra!")}};
                                        });
                        return mcp::call_tool_result{.content = {mcp::text("added extra")}};
                    });
    server.add_tool({.name = "touch_resource",
                     .description = "Announce that a resource changed (resources/updated)",
                     .input_schema = schema({{"uri", {{"type", "string"}}}}, {"uri"})},
                    [&server](const object& args, mcp::context&) {
                        server.notify_resource_updated(arg_string(args, "uri"));
                        return mcp::call_tool_result{.content = {mcp::text("updated")}};
                    });
}

void add_resources(mcp::server& server) {
    for (int i = 1; i <= 20; ++i) {
        const std::string uri = "test://static/resource/" + std::to_string(i);
        server.add_resource({.uri = uri,
                             .name = "Resource " + std::to_string(i),
                             .mime_type = i % 2 ? "text/plain" : "application/octet-stream"},
                            [i](const std::string&, mcp::context&) {
                                return mcp::read_resource_result{.contents = {static_contents(i)}};
                            });
    }
    server.add_resource_template(
        {.uri_template = "test://static/resource/{id}",
         .name = "Static resource",
         .description = "A static resource by number (1-100)"},
        [](const std::string& uri, const std::map<std::string, std::string>& vars, mcp::context&) {
            int id = 0;
            try {
                id = std::stoi(vars.at("id"));
            } catch (...) {
            }
            if (id < 1 || id > 100)
                throw mcp::error(mcp::error_code::resource_not_found, "Resource not found: " + uri,
                                 object{{"uri", uri}});
            return mcp::read_resource_result{.contents = {static_contents(id)}};
        },
        {{"id", [](const std::string&, const std::string& value, const std::map<std::string, std::string>&) {
              mcp::complete_result r;
              for (int i = 1; i <= 100; ++i)
                  if (std::to_string(i).rfind(value, 0) == 0) r.values.push_back(std::to_string(i));
              return r;
          }}});
}

void add_typed_features(mcp::server& server) {
    server.add_tool(
        {.name = "get_weather",
         .title = "Weather forecast",
         .description = "Forecast for a city, one entry per day (structured result)",
         .annotations = mcp::tool_annotations{.read_only_hint = true, .open_world_hint = false}},
        [](const weather::forecast_request& r, mcp::context&) { return weather::make_forecast(r); });

    server.add_tool("book_table",
                    "Book a restaurant table, asking the user for the details (typed elicitation)",
                    [](mcp::context& ctx) -> std::string {
                        auto answer = ctx.elicit<weather::reservation>("Please fill in your booking");
                        if (!answer.accepted())
                            return "Booking " + std::string(mcp::to_string(answer.action)) + "d";
                        const auto& b = *answer.content;
                        if (!b.confirm) return "Booking not confirmed";
                        return "Booked a table for " + std::to_string(b.party_size) + " (" + b.name +
                               ") on " + b.date + ", " + mcp::to_json(mcp::to_value(b.where));
                    });

    server.add_prompt(
        {.name = "code_review", .title = "Code review", .description = "Review code in a language"},
        [](const weather::review_request& r) {
            return "Please review the following " + std::string(mcp::to_value(r.lang).as_string()) +
                   " code. Give at most " + std::to_string(r.max_comments) + " comments" +
                   (r.focus ? ", looking at " + *r.focus + " first." : ".");
        });

    // A template with query variables: weather://Paris/forecast?days=2&unit=fahrenheit.
    server.add_resource_template(
        {.uri_template = "weather://{city}/forecast{?days,unit}",
         .name = "Forecast",
         .description = "The forecast of get_weather as a JSON resource",
         .mime_type = "application/json"},
        [](const std::string& uri, const std::map<std::string, std::string>& vars, mcp::context&) {
            object args{{"city", vars.at("city")}};
            try {
                if (vars.count("days")) args["days"] = std::stoi(vars.at("days"));
            } catch (const std::exception&) {
                throw mcp::error(mcp::error_code::invalid_params, "days must be a number: " + uri);
            }
            if (vars.count("unit")) args["unit"] = vars.at("unit");
            const mcp::json::value request(std::move(args));
            if (auto errors = mcp::schema::validator_of<weather::forecast_request>().validate(request);
                !errors.empty())
                throw mcp::error(mcp::error_code::invalid_params,
                                 "Invalid forecast URI " + uri + ": " + mcp::schema::summarize(errors));
            const auto f = weather::make_forecast(mcp::from_value<weather::forecast_request>(request));
            return mcp::read_resource_result{
                .contents = {mcp::text_resource_contents{
                    .uri = uri, .mime_type = "application/json", .text = mcp::to_json(mcp::to_value(f))}}};
        },
        {{"city",
          [](const std::string&, const std::string& value, const std::map<std::string, std::string>&) {
              mcp::complete_result r;
              for (const char* c : {"Paris", "Berlin", "Oslo", "Lisbon", "Prague"})
                  if (std::string(c).rfind(value, 0) == 0) r.values.emplace_back(c);
              return r;
          }}});
}

void add_prompts(mcp::server& server) {
    server.add_prompt(
        {.name = "simple_prompt", .title = "Simple prompt", .description = "A prompt without arguments"},
        [](const std::map<std::string, std::string>&, mcp::context&) {
            return mcp::get_prompt_result{
                .messages = {{.role = mcp::role::user, .content = mcp::text("This is a simple prompt.")}}};
        });
    server.add_prompt(
        {.name = "complex_prompt",
         .description = "A prompt with arguments",
         .arguments = {{.name = "temperature", .description = "Temperature setting", .required = true},
                       {.name = "style", .description = "Output style", .required = false}}},
        [](const std::map<std::string, std::string>& args, mcp::context&) {
            auto style = args.count("style") ? args.at("style") : "plain";
            return mcp::get_prompt_result{
                .description = "Complex prompt",
                .messages = {{.role = mcp::role::user,
                              .content = mcp::text("Complex prompt: temperature=" + args.at("temperature") +
                                                   ", style=" + style)},
                             {.role = mcp::role::assistant, .content = mcp::text("Understood.")},
                             {.role = mcp::role::user, .content = mcp::image(tiny_png, "image/png")}}};
        },
        {{"style",
          [](const std::string&, const std::string& value, const std::map<std::string, std::string>&) {
              mcp::complete_result r;
              for (const char* s : {"casual", "formal", "technical", "friendly"})
                  if (std::string(s).rfind(value, 0) == 0) r.values.emplace_back(s);
              return r;
          }}});
    server.add_prompt(
        {.name = "resource_prompt",
         .description = "A prompt that embeds a resource",
         .arguments = {{.name = "resourceId", .description = "1-20", .required = true}}},
        [](const std::map<std::string, std::string>& args, mcp::context&) {
            int id = 0;
            try {
                id = std::stoi(args.at("resourceId"));
            } catch (...) {
            }
            if (id < 1 || id > 20)
                throw mcp::error(mcp::error_code::invalid_params, "resourceId must be 1-20");
            return mcp::get_prompt_result{
                .messages = {{.role = mcp::role::user,
                              .content = mcp::text("Here is resource " + std::to_string(id) + ":")},
                             {.role = mcp::role::user,
                              .content = mcp::embedded_resource{.resource = static_contents(id)}}}};
        });
}

} // namespace

int main(int argc, char** argv) {
    // --stdio (default) | --http HOST:PORT [--stateless] [--legacy-sse] [--oauth-issuer URL ...]
    std::optional<mcp::http::server_options> http;
    mcp::auth::oauth_flags oauth;
    auto usage = [] {
        std::cerr << "usage: everything_server [--stdio] | --http HOST:PORT [--stateless] [--legacy-sse] "
                  << mcp::auth::oauth_flags_usage << "\n";
        return 2;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--stdio") continue;
        try {
            if (oauth.consume(argc, argv, i)) continue;
        } catch (const std::invalid_argument&) {
            return usage();
        }
        if (arg == "--http" && i + 1 < argc) {
            const std::string_view where = argv[++i];
            const auto colon = where.rfind(':');
            if (colon == std::string_view::npos) return usage();
            http.emplace();
            http->address = std::string(where.substr(0, colon));
            const auto port = where.substr(colon + 1);
            const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), http->port);
            if (ec != std::errc() || end != port.data() + port.size()) return usage();
        } else if (arg == "--stateless" && http) {
            http->stateful = false;
        } else if (arg == "--legacy-sse" && http) {
            http->legacy_sse = true;
        } else {
            return usage();
        }
    }
    mcp::server server(
        {.info = {.name = "mcpxx-everything",
                  .version = "0.1.0",
                  .title = "mcpxx everything server",
                  .description = "Exercises every MCP feature mcpxx implements",
                  .icons = {{.src = std::string("data:image/png;base64,") + tiny_png,
                             .mime_type = "image/png",
                             .sizes = {"1x1"}}},
                  .website_url = "https://example.invalid/mcpxx"},
         .instructions = "A test server: every tool, resource and prompt exists to exercise one MCP feature.",
         .page_size = 10});
    add_tools(server);
    add_dynamic_tools(server);
    add_resources(server);
    add_prompts(server);
    add_typed_features(server);
    if (http) return mcp::auth::serve(server, std::move(*http), oauth);
    if (oauth.enabled()) return usage(); // OAuth is for HTTP
    return mcp::serve_stdio(server);
}
