// demo_client: the main job of `make run` (for now). Starts everything_server as a child
// process, connects over stdio, and prints what an MCP host sees: the server, its tools,
// resources and prompts; then calls tools (one with progress, one that samples through this
// client), reads a resource, gets a prompt and completes an argument.
//
//   demo_client [path/to/everything_server]
#include <mcp/client/client.hpp>
#include <mcp/transport/child_process.hpp>

#include <filesystem>
#include <iostream>

namespace {

std::string describe(const mcp::content_block& b) {
    return std::visit(
        [](const auto& c) -> std::string {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, mcp::text_content>)
                return c.text;
            else if constexpr (std::is_same_v<T, mcp::image_content>)
                return "[image " + c.mime_type + ", " + std::to_string(c.data.size()) + " base64 chars]";
            else if constexpr (std::is_same_v<T, mcp::audio_content>)
                return "[audio " + c.mime_type + "]";
            else if constexpr (std::is_same_v<T, mcp::resource_link>)
                return "[link " + c.uri + "]";
            else
                return "[embedded resource]";
        },
        b);
}

void heading(const std::string& s) {
    std::cout << "\n== " << s << " ==\n";
}

} // namespace

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::string server =
        argc > 1 ? argv[1] : (fs::path(argv[0]).parent_path() / "everything_server").string();
    try {
        mcp::client client(
            {.info = {.name = "mcpxx-demo", .version = "0.1.0", .title = "mcpxx demo client"}});
        // This host has no model: it answers sampling with a canned reply, as a test stub would.
        client.set_sampling_handler([](const mcp::create_message_request& req, mcp::request_context&) {
            std::cout << "   (server asked this client to sample: " << req.messages.size()
                      << " message(s), max " << req.max_tokens << " tokens)\n";
            return mcp::create_message_result{
                .role = mcp::role::assistant,
                .content = {mcp::text_content{.text = "42, said the demo host"}},
                .model = "demo-model"};
        });
        client.set_roots({{.uri = "file://" + fs::current_path().string(), .name = "current directory"}});
        client.on_log_message([](const mcp::logging_message_notification& m) {
            std::cout << "   log [" << mcp::to_string(m.level) << "] " << mcp::to_json(m.data) << "\n";
        });

        auto transport = mcp::child_process_transport::spawn({.command = server});
        const auto& init = client.connect(transport);
        heading("server");
        std::cout << init.server_info.name << " " << init.server_info.version
                  << (init.server_info.title ? " (" + *init.server_info.title + ")" : "") << "\n"
                  << "protocol revision " << init.protocol_version << "\n";
        if (init.instructions) std::cout << "instructions: " << *init.instructions << "\n";

        heading("tools");
        for (const auto& t : client.list_all_tools())
            std::cout << "  " << t.name << (t.description ? " - " + *t.description : "") << "\n";

        heading("call add {a: 2, b: 40}");
        auto sum = client.call_tool("add", {{"a", 2}, {"b", 40}});
        for (const auto& b : sum.content) std::cout << "  " << describe(b) << "\n";
        if (sum.structured_content)
            std::cout << "  structured: " << mcp::to_json(*sum.structured_content) << "\n";

        heading("call long_operation (with progress)");
        mcp::call_options progress;
        progress.on_progress = [](const mcp::progress_update& u) {
            std::cout << "   progress " << u.progress << "/" << u.total.value_or(0) << " "
                      << u.message.value_or("") << "\n";
        };
        auto lo = client.call_tool("long_operation", {{"duration", 0.3}, {"steps", 3}}, progress);
        for (const auto& b : lo.content) std::cout << "  " << describe(b) << "\n";

        heading("call sample_llm (the server asks this client's model)");
        auto sampled = client.call_tool("sample_llm", {{"prompt", "What is 6 x 7?"}});
        for (const auto& b : sampled.content) std::cout << "  " << describe(b) << "\n";

        heading("call fail (a tool error the model can read)");
        auto failed = client.call_tool("fail");
        std::cout << "  isError=" << failed.is_error.value_or(false) << ": " << describe(failed.content.at(0))
                  << "\n";

        heading("resources (first 5 of " + std::to_string(client.list_all_resources().size()) + ")");
        auto resources = client.list_all_resources();
        for (std::size_t i = 0; i < resources.size() && i < 5; ++i)
            std::cout << "  " << resources[i].uri << " - " << resources[i].name << "\n";
        for (const auto& t : client.list_all_resource_templates())
            std::cout << "  template " << t.uri_template << "\n";

        heading("read test://static/resource/1");
        for (const auto& c : client.read_resource("test://static/resource/1").contents)
            if (auto* t = std::get_if<mcp::text_resource_contents>(&c)) std::cout << "  " << t->text << "\n";

        heading("prompts");
        for (const auto& p : client.list_all_prompts()) {
            std::cout << "  /" << p.name;
            for (const auto& a : p.arguments)
                std::cout << " <" << a.name << (a.required.value_or(false) ? "" : "?") << ">";
            std::cout << "\n";
        }
        heading("get complex_prompt {temperature: 0.7, style: formal}");
        for (const auto& m :
             client.get_prompt("complex_prompt", {{"temperature", "0.7"}, {"style", "formal"}}).messages)
            std::cout << "  " << mcp::to_string(m.role) << ": " << describe(m.content) << "\n";

        heading("complete style of complex_prompt from \"f\"");
        auto completion = client.complete({.ref = mcp::prompt_reference{.name = "complex_prompt"},
                                           .argument = {.name = "style", .value = "f"}});
        for (const auto& v : completion.values) std::cout << "  " << v << "\n";

        client.close();
        std::cout << "\ndone.\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "demo_client: " << e.what() << "\n";
        return 1;
    }
}
