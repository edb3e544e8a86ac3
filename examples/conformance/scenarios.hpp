// examples/conformance/scenarios.hpp - what the official MCP conformance suite
// (@modelcontextprotocol/conformance 0.2.0-alpha.12) calls on a server under test, registered
// on an mcp::server: the tools, resources, resource template, prompts and completion of the
// 2025-11-25 server scenarios, with the exact names, texts and content types they check.
//
//   mcp::server server(conformance::server_options());
//   conformance::add_conformance_features(server);
//   mcp::http::serve(server, {.port = 3301});        // examples/conformance/conformance_server.cpp
//
// Scenario -> feature (2025-11-25 requirement set; `list --requirements 2025-11-25`):
//   tools-call-simple-text        test_simple_text              one text block
//   tools-call-image / -audio     test_image_content / test_audio_content   image/png, audio/wav
//   tools-call-embedded-resource  test_embedded_resource        an embedded text resource
//   tools-call-mixed-content      test_multiple_content_types   text + image + embedded resource
//   tools-call-with-logging       test_tool_with_logging        3 notifications/message (info)
//   tools-call-with-progress      test_tool_with_progress       progress 0, 50, 100 of 100
//   tools-call-error              test_error_handling           isError: true with a message
//   tools-call-sampling           test_sampling {prompt}        sampling/createMessage round trip
//   tools-call-elicitation        test_elicitation {message}    elicitation/create round trip
//   elicitation-sep1034-defaults  test_elicitation_sep1034_defaults   defaults of every primitive
//   elicitation-sep1330-enums     test_elicitation_sep1330_enums      the five enum schema forms
//   json-schema-2020-12 (pending) json_schema_2020_12_tool      the 2020-12 inputSchema verbatim
//   server-sse-polling (pending)  test_reconnection             answers after 100 ms
//   resources-*                   test://static-text, test://static-binary,
//                                 test://template/{id}/data, test://watched-resource (subscribe)
//   prompts-*                     test_simple_prompt, test_prompt_with_arguments,
//                                 test_prompt_with_embedded_resource, test_prompt_with_image
//   completion-complete           argument arg1 of test_prompt_with_arguments
// and, beyond the suite, test_resource_link (a resource_link block) and
// test_trigger_resource_update (notifications/resources/updated to subscribers).
// The other server scenarios (initialize, ping, logging/setLevel, tools/list, session and
// transport checks) need nothing registered: the library and its HTTP transport answer them.
#pragma once

#include <mcp/server/server.hpp>

namespace conformance {

/// A 1x1 PNG and a minimal (empty) WAV file, base64: the image and audio the scenarios expect.
extern const char* const png_1x1_base64;
extern const char* const wav_base64;

/// Server options for the conformance target: its name and version.
mcp::server_options server_options();

/// Everything below at once.
void add_conformance_features(mcp::server& server);

/// The tools (scenarios tools-call-*, elicitation-*, json-schema-2020-12, server-sse-polling).
void add_conformance_tools(mcp::server& server);
/// The resources and the resource template (scenarios resources-*).
void add_conformance_resources(mcp::server& server);
/// The prompts and the completion of test_prompt_with_arguments.arg1 (prompts-*, completion-complete).
void add_conformance_prompts(mcp::server& server);
/// What the 2026-07-28 scenarios add (scenario_stateless.cpp): the MRTR tools and prompt
/// (input-required-result-*), the diagnostic tools of server-stateless (test_missing_capability,
/// test_streaming_elicitation, test_logging_tool, test_trigger_tool_change,
/// test_trigger_prompt_change) and a tool with an x-mcp-header parameter (http-*-header-*).
void add_stateless_features(mcp::server& server);

} // namespace conformance
