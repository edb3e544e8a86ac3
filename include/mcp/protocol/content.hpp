// mcp/protocol/content.hpp - content blocks (tool results, prompt messages, sampling messages)
// and resource contents.
//
// Downgrade rule (one wire codec per revision): a content type the negotiated revision does not
// define is sent as a text block describing it, so the information still reaches the peer:
//   audio          before 2025-03-26 -> text "[audio: <mimeType>, <n> bytes of base64 data omitted]"
//   resource_link  before 2025-06-18 -> text "[resource: <name> <uri>]" (+ " - <description>")
//   tool_use       before 2025-11-25 -> text "[tool use <id>: <name>(<input JSON>)]"
//   tool_result    before 2025-11-25 -> text "[tool result <toolUseId>]" + the text of its content
// Annotations are kept on the replacement block; `_meta` follows the revision rule.
#pragma once

#include <mcp/protocol/metadata.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mcp {

/// Text content (type "text").
struct text_content {
    std::string text;
    std::optional<mcp::annotations> annotations;
    std::optional<json::object> meta; ///< `_meta`, 2025-06-18+
    bool operator==(const text_content&) const = default;
};

/// Image content (type "image"): base64 data + MIME type.
struct image_content {
    std::string data;
    std::string mime_type;
    std::optional<mcp::annotations> annotations;
    std::optional<json::object> meta;
    bool operator==(const image_content&) const = default;
};

/// Audio content (type "audio", 2025-03-26+): base64 data + MIME type.
struct audio_content {
    std::string data;
    std::string mime_type;
    std::optional<mcp::annotations> annotations;
    std::optional<json::object> meta;
    bool operator==(const audio_content&) const = default;
};

/// Text contents of a resource (TextResourceContents).
struct text_resource_contents {
    std::string uri;
    std::optional<std::string> mime_type;
    std::string text;
    std::optional<json::object> meta;
    bool operator==(const text_resource_contents&) const = default;
};

/// Binary contents of a resource, base64 (BlobResourceContents).
struct blob_resource_contents {
    std::string uri;
    std::optional<std::string> mime_type;
    std::string blob;
    std::optional<json::object> meta;
    bool operator==(const blob_resource_contents&) const = default;
};

/// TextResourceContents | BlobResourceContents (told apart by `text` / `blob`).
using resource_contents = std::variant<text_resource_contents, blob_resource_contents>;

/// A resource embedded in a message (type "resource").
struct embedded_resource {
    resource_contents resource;
    std::optional<mcp::annotations> annotations;
    std::optional<json::object> meta;
    bool operator==(const embedded_resource&) const = default;
};

/// A link to a resource the client may read (type "resource_link", 2025-06-18+).
struct resource_link {
    std::string uri;
    std::string name;
    std::optional<std::string> title;
    std::optional<std::string> description;
    std::optional<std::string> mime_type;
    std::optional<std::int64_t> size; ///< bytes
    std::vector<icon> icons;          ///< 2025-11-25+
    std::optional<mcp::annotations> annotations;
    std::optional<json::object> meta;
    bool operator==(const resource_link&) const = default;
};

/// ContentBlock: what tool results and prompt messages carry.
using content_block =
    std::variant<text_content, image_content, audio_content, resource_link, embedded_resource>;

/// A model's request to call a tool, inside sampling (type "tool_use", 2025-11-25+).
struct tool_use_content {
    std::string id;
    std::string name;
    json::object input;
    std::optional<json::object> meta;
    bool operator==(const tool_use_content&) const = default;
};

/// The result of a tool use, inside sampling (type "tool_result", 2025-11-25+).
struct tool_result_content {
    std::string tool_use_id;
    std::vector<content_block> content;
    std::optional<json::value> structured_content;
    std::optional<bool> is_error;
    std::optional<json::object> meta;
    bool operator==(const tool_result_content&) const = default;
};

/// SamplingMessageContentBlock: what sampling messages carry.
using sampling_content =
    std::variant<text_content, image_content, audio_content, tool_use_content, tool_result_content>;

json::object to_json(const text_content& x, revision r);
json::object to_json(const image_content& x, revision r);
/// Before 2025-03-26: a text block describing the audio (see the downgrade rule above).
json::object to_json(const audio_content& x, revision r);
json::object to_json(const text_resource_contents& x, revision r);
json::object to_json(const blob_resource_contents& x, revision r);
json::object to_json(const resource_contents& x, revision r);
json::object to_json(const embedded_resource& x, revision r);
/// Before 2025-06-18: a text block naming the link.
json::object to_json(const resource_link& x, revision r);
json::object to_json(const content_block& x, revision r);
/// Before 2025-11-25: a text block describing the tool use.
json::object to_json(const tool_use_content& x, revision r);
/// Before 2025-11-25: a text block with the tool result's text.
json::object to_json(const tool_result_content& x, revision r);
json::object to_json(const sampling_content& x, revision r);
/// Array of content blocks (each encoded for `r`).
json::array to_json(const std::vector<content_block>& blocks, revision r);

template <> text_content from_json<text_content>(const json::value& v);
template <> image_content from_json<image_content>(const json::value& v);
template <> audio_content from_json<audio_content>(const json::value& v);
template <> resource_contents from_json<resource_contents>(const json::value& v);
template <> embedded_resource from_json<embedded_resource>(const json::value& v);
template <> resource_link from_json<resource_link>(const json::value& v);
/// Dispatches on `type`; an unknown type is an invalid_params error.
template <> content_block from_json<content_block>(const json::value& v);
template <> tool_use_content from_json<tool_use_content>(const json::value& v);
template <> tool_result_content from_json<tool_result_content>(const json::value& v);
template <> sampling_content from_json<sampling_content>(const json::value& v);

// --- helpers to build content blocks ---

/// A text block.
content_block text(std::string text);
/// An image block from base64 data.
content_block image(std::string data_base64, std::string mime_type);
/// An audio block from base64 data.
content_block audio(std::string data_base64, std::string mime_type);
/// A resource_link block.
content_block link_to(std::string uri, std::string name, std::optional<std::string> mime_type = std::nullopt,
                      std::optional<std::string> description = std::nullopt);
/// An embedded text resource.
content_block embedded_text(std::string uri, std::string text,
                            std::optional<std::string> mime_type = std::nullopt);
/// An embedded binary resource from base64 data.
content_block embedded_blob(std::string uri, std::string blob_base64,
                            std::optional<std::string> mime_type = std::nullopt);

/// The text of a block if it is a text block, else nullptr.
const std::string* text_of(const content_block& b) noexcept;

} // namespace mcp
