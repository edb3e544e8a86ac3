// mcp/protocol/codec.hpp - the per-revision wire codec: which revision defines which field, in one
// table, and the generic entry points every MCP type provides.
//
// Every protocol type T in mcp/protocol/*.hpp comes with
//
//   json::object to_json(const T& x, revision r);   // camelCase wire form for revision r
//   template <> T from_json<T>(const json::value& v); // tolerant parse, any revision
//
// to_json writes only what revision `r` defines: a field the revision lacks is never sent, and a
// content block the revision lacks is downgraded to a text block that describes it (see
// content.hpp). Optional fields that are unset are omitted.
//
// from_json accepts the union of all revisions: unknown members are ignored, `_meta` is kept
// where the type has it, JSON null counts as absent for optional members. A wrong type or a
// missing required member throws mcp::error(error_code::invalid_params, message) whose message
// names the member with its schema path, e.g. "Invalid params: Tool.inputSchema must be an object".
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/jsonrpc/error.hpp>
#include <mcp/protocol/revision.hpp>

namespace mcp {

/// Parse a protocol type from its wire form. Specialized for every type of mcp/protocol; throws
/// mcp::error(invalid_params) naming the offending member.
template <class T> T from_json(const json::value& v);

/// A field (or feature) of the wire format that not every revision defines. The one place where
/// revision differences of the data model are recorded; the codec asks `defines(r, f)`.
enum class wire_field {
    title, ///< `title` on Tool, Resource, ResourceTemplate, Prompt, PromptArgument, PromptReference,
           ///< Implementation
    icons, ///< `icons` on Tool, Resource, ResourceTemplate, Prompt, ResourceLink, Implementation
    implementation_details, ///< Implementation `description`, `websiteUrl`
    entity_meta, ///< `_meta` on content blocks, resource contents, Tool, Resource, ResourceTemplate, Prompt,
                 ///< Root
    annotations_last_modified, ///< Annotations `lastModified`
    audio_content,             ///< content type "audio"
    resource_link_content,     ///< content type "resource_link"
    tool_annotations,          ///< Tool `annotations` (ToolAnnotations)
    tool_output_schema,        ///< Tool `outputSchema`
    structured_content,        ///< CallToolResult `structuredContent`
    structured_content_any,    ///< `structuredContent` may be any JSON value (before: object only)
    completions_capability,    ///< ServerCapabilities `completions`
    completion_context,        ///< CompleteRequest `context`
    progress_message,          ///< ProgressNotification `message`
    elicitation,               ///< `elicitation/create`, ClientCapabilities `elicitation`
    elicitation_modes,   ///< ElicitRequest `mode`, URL mode, ClientCapabilities elicitation `form`/`url`,
                         ///< multi-select values
    elicitation_id,      ///< URL-mode `elicitationId`, notifications/elicitation/complete
    sampling_tools,      ///< sampling `tools`, `toolChoice`, tool_use/tool_result content, content arrays,
                         ///< SamplingMessage `_meta`, sampling `context`/`tools` capabilities
    server_request_meta, ///< `_meta` in params of server->client requests (sampling, elicitation)
    client_result_meta,  ///< `_meta` on ListRootsResult and ElicitResult
    roots_list_changed,  ///< ClientCapabilities roots `listChanged`, notifications/roots/list_changed
    tasks,               ///< tasks capabilities, Tool `execution`, task-augmented params
    extensions,          ///< ClientCapabilities/ServerCapabilities `extensions`
    initialize,          ///< initialize / notifications/initialized / InitializeResult
    discover,            ///< server/discover
    result_type,         ///< `resultType` on server results (required there)
    cacheable_result,    ///< `ttlMs`, `cacheScope` on list/read/discover results (required there)
    input_responses,     ///< `inputResponses`, `requestState` on tools/call, prompts/get, resources/read
};

/// One row of the revision table: `f` is defined from `first` through `last` inclusive.
struct field_rule {
    wire_field f;
    revision first;
    revision last;
};

// clang-format off
inline constexpr field_rule field_rules[] = {
    {wire_field::title,                     revision::v2025_06_18, revision::v2026_07_28},
    {wire_field::icons,                     revision::v2025_11_25, revision::v2026_07_28},
    {wire_field::implementation_details,    revision::v2025_11_25, revision::v2026_07_28},
    {wire_field::entity_meta,               revision::v2025_06_18, revision::v2026_07_28},
    {wire_field::annotations_last_modified, revision::v2025_06_18, revision::v2026_07_28},
    {wire_field::audio_content,             revision::v2025_03_26, revision::v2026_07_28},
    {wire_field::resource_link_content,     revision::v2025_06_18, revision::v2026_07_28},
    {wire_field::tool_annotations,          revision::v2025_03_26, revision::v2026_07_28},
    {wire_field::tool_output_schema,        revision::v2025_06_18, revision::v2026_07_28},
    {wire_field::structured_content,        revision::v2025_06_18, revision::v2026_07_28},
    {wire_field::structured_content_any,    revision::v2026_07_28, revision::v2026_07_28},
    {wire_field::completions_capability,    revision::v2025_03_26, revision::v2026_07_28},
    {wire_field::completion_context,        revision::v2025_06_18, revision::v2026_07_28},
    {wire_field::progress_message,          revision::v2025_03_26, revision::v2026_07_28},
    {wire_field::elicitation,               revision::v2025_06_18, revision::v2026_07_28},
    {wire_field::elicitation_modes,         revision::v2025_11_25, revision::v2026_07_28},
    {wire_field::elicitation_id,            revision::v2025_11_25, revision::v2025_11_25},
    {wire_field::sampling_tools,            revision::v2025_11_25, revision::v2026_07_28},
    {wire_field::server_request_meta,       revision::v2024_11_05, revision::v2025_11_25},
    {wire_field::client_result_meta,        revision::v2024_11_05, revision::v2025_11_25},
    {wire_field::roots_list_changed,        revision::v2024_11_05, revision::v2025_11_25},
    {wire_field::tasks,                     revision::v2025_11_25, revision::v2025_11_25},
    {wire_field::extensions,                revision::v2026_07_28, revision::v2026_07_28},
    {wire_field::initialize,                revision::v2024_11_05, revision::v2025_11_25},
    {wire_field::discover,                  revision::v2026_07_28, revision::v2026_07_28},
    {wire_field::result_type,               revision::v2026_07_28, revision::v2026_07_28},
    {wire_field::cacheable_result,          revision::v2026_07_28, revision::v2026_07_28},
    {wire_field::input_responses,           revision::v2026_07_28, revision::v2026_07_28},
};
// clang-format on

/// Whether revision `r` defines field `f` (fields absent from the table exist in every revision).
constexpr bool defines(revision r, wire_field f) noexcept {
    for (const auto& rule : field_rules)
        if (rule.f == f) return r >= rule.first && r <= rule.last;
    return true;
}

} // namespace mcp
