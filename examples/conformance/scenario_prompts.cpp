// The prompts of the conformance server scenarios (prompts-list, prompts-get-simple,
// prompts-get-with-args, prompts-get-embedded-resource, prompts-get-with-image) and the
// completion of completion-complete (ref/prompt test_prompt_with_arguments, argument arg1).
#include "scenarios.hpp"

#include <map>
#include <string>
#include <vector>

namespace conformance {

namespace {

struct prompt_args {
    std::string arg1;
    std::string arg2;
};
MCP_DESCRIBE(prompt_args, (arg1, "First test argument"), (arg2, "Second test argument"))

struct embedded_resource_args {
    std::string resourceUri; // the argument's name on the wire
};
MCP_DESCRIBE(embedded_resource_args, (resourceUri, "URI of the resource to embed"))

mcp::complete_result complete_arg1(const std::string&, const std::string& value,
                                   const std::map<std::string, std::string>&) {
    mcp::complete_result r;
    for (const char* candidate : {"paris", "park", "party"})
        if (std::string(candidate).rfind(value, 0) == 0) r.values.emplace_back(candidate);
    r.total = static_cast<std::int64_t>(r.values.size());
    r.has_more = false;
    return r;
}

} // namespace

void add_conformance_prompts(mcp::server& server) {
    server.add_prompt({.name = "test_simple_prompt",
                       .title = "Simple Test Prompt",
                       .description = "A simple prompt without arguments"},
                      [](const std::map<std::string, std::string>&, mcp::context&) {
                          return mcp::get_prompt_result{
                              .messages = {{.role = mcp::role::user,
                                            .content = mcp::text("This is a simple prompt for testing.")}}};
                      });

    server.add_prompt({.name = "test_prompt_with_arguments",
                       .title = "Prompt With Arguments",
                       .description = "A prompt with required arguments"},
                      [](const prompt_args& a) {
                          return "Prompt with arguments: arg1='" + a.arg1 + "', arg2='" + a.arg2 + "'";
                      },
                      {{"arg1", complete_arg1}});

    server.add_prompt({.name = "test_prompt_with_embedded_resource",
                       .title = "Prompt With Embedded Resource",
                       .description = "A prompt that includes an embedded resource"},
                      [](const embedded_resource_args& a) {
                          return std::vector<mcp::prompt_message>{
                              {.role = mcp::role::user,
                               .content = mcp::embedded_text(
                                   a.resourceUri, "Embedded resource content for testing.", "text/plain")},
                              {.role = mcp::role::user,
                               .content = mcp::text("Please process the embedded resource above.")}};
                      });

    server.add_prompt(
        {.name = "test_prompt_with_image",
         .title = "Prompt With Image",
         .description = "A prompt that includes image content"},
        [](const std::map<std::string, std::string>&, mcp::context&) {
            return mcp::get_prompt_result{
                .messages = {
                    {.role = mcp::role::user, .content = mcp::image(png_1x1_base64, "image/png")},
                    {.role = mcp::role::user, .content = mcp::text("Please analyze the image above.")}}};
        });
}

} // namespace conformance
