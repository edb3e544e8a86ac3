// The resources of the conformance server scenarios: resources-list, resources-read-text,
// resources-read-binary, resources-templates-read, resources-subscribe, resources-unsubscribe.
// Subscriptions themselves are the library's (resources/subscribe and unsubscribe are answered
// for every registered resource); test_trigger_resource_update (scenario_tools.cpp) sends
// notifications/resources/updated to the subscribers of test://watched-resource.
#include "scenarios.hpp"

#include <map>
#include <string>

namespace conformance {

namespace {

using mcp::json::object;

mcp::read_resource_result text_contents(const std::string& uri, const char* mime_type, std::string text) {
    return mcp::read_resource_result{.contents = {mcp::text_resource_contents{
                                         .uri = uri, .mime_type = mime_type, .text = std::move(text)}}};
}

} // namespace

void add_conformance_resources(mcp::server& server) {
    server.add_resource({.uri = "test://static-text",
                         .name = "static-text",
                         .title = "Static Text Resource",
                         .description = "A static text resource for testing",
                         .mime_type = "text/plain"},
                        [](const std::string& uri, mcp::context&) {
                            return text_contents(uri, "text/plain",
                                                 "This is the content of the static text resource.");
                        });

    server.add_resource({.uri = "test://static-binary",
                         .name = "static-binary",
                         .title = "Static Binary Resource",
                         .description = "A static binary resource (image) for testing",
                         .mime_type = "image/png"},
                        [](const std::string& uri, mcp::context&) {
                            return mcp::read_resource_result{
                                .contents = {mcp::blob_resource_contents{
                                    .uri = uri, .mime_type = "image/png", .blob = png_1x1_base64}}};
                        });

    server.add_resource({.uri = "test://watched-resource",
                         .name = "watched-resource",
                         .title = "Watched Resource",
                         .description = "A resource to subscribe to",
                         .mime_type = "text/plain"},
                        [](const std::string& uri, mcp::context&) {
                            return text_contents(uri, "text/plain", "Watched resource content");
                        });

    // resources-templates-read reads test://template/123/data and looks for "123" in the text.
    server.add_resource_template(
        {.uri_template = "test://template/{id}/data",
         .name = "template",
         .title = "Resource Template",
         .description = "A resource template with parameter substitution",
         .mime_type = "application/json"},
        [](const std::string& uri, const std::map<std::string, std::string>& vars, mcp::context&) {
            const std::string& id = vars.at("id");
            return text_contents(
                uri, "application/json",
                mcp::to_json(object{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}}));
        });
}

} // namespace conformance
