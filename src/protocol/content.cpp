// Codec of content blocks and resource contents, with the downgrade of content types a revision
// does not define (see content.hpp). The members are generated from the descriptions; the `type`
// tag, the downgrades and the choice of variant alternative are written by hand.
#include "protocol/described.hpp"

namespace mcp {

using namespace wire;

#define MCP_CONTENT_COMMON (annotations), (meta, when(wire_field::entity_meta))
MCP_WIRE_DESCRIBE(text_content, "TextContent", (text), MCP_CONTENT_COMMON)
MCP_WIRE_DESCRIBE(image_content, "ImageContent", (data), (mime_type), MCP_CONTENT_COMMON)
MCP_WIRE_DESCRIBE(audio_content, "AudioContent", (data), (mime_type), MCP_CONTENT_COMMON)
MCP_WIRE_DESCRIBE(embedded_resource, "EmbeddedResource", (resource), MCP_CONTENT_COMMON)
MCP_WIRE_DESCRIBE(resource_link, "ResourceLink", (uri), (name), (title), (description), (mime_type), (size),
                  (icons, when(wire_field::icons)), MCP_CONTENT_COMMON)
#undef MCP_CONTENT_COMMON
MCP_WIRE_DESCRIBE(text_resource_contents, "TextResourceContents", (uri), (mime_type), (text),
                  (meta, when(wire_field::entity_meta)))
MCP_WIRE_DESCRIBE(blob_resource_contents, "BlobResourceContents", (uri), (mime_type), (blob),
                  (meta, when(wire_field::entity_meta)))
MCP_WIRE_DESCRIBE(tool_use_content, "ToolUseContent", (id), (name), (input), (meta))
MCP_WIRE_DESCRIBE(tool_result_content, "ToolResultContent", (tool_use_id), (content, field::required),
                  (structured_content), (is_error), (meta))

namespace {

/// The `type` tag of each content block.
template <class T> constexpr const char* tag = nullptr;
template <> constexpr const char* tag<text_content> = "text";
template <> constexpr const char* tag<image_content> = "image";
template <> constexpr const char* tag<audio_content> = "audio";
template <> constexpr const char* tag<embedded_resource> = "resource";
template <> constexpr const char* tag<resource_link> = "resource_link";
template <> constexpr const char* tag<tool_use_content> = "tool_use";
template <> constexpr const char* tag<tool_result_content> = "tool_result";

/// {"type": tag, members of x...}
template <class T> json::object block(const T& x, revision r) {
    json::object o;
    o["type"] = tag<T>;
    write_into(o, x, r);
    return o;
}

json::object text_block(std::string text, const std::optional<annotations>& a, revision r) {
    return block(text_content{std::move(text), a, std::nullopt}, r);
}

/// The alternative of variant V whose tag `v` carries.
template <class V> V read_tagged(const json::value& v, std::string_view path, std::string_view kind) {
    const auto t = req_string(object(v, path), "type", path);
    std::optional<V> out;
    [&]<class... A>(std::variant<A...>*) {
        ((!out && t == tag<A> ? (void)out.emplace(read_struct<A>(v, path)) : void()), ...);
    }(static_cast<V*>(nullptr));
    if (!out) fail(join(path, "type"), "is not a known " + std::string(kind) + "type (\"" + t + "\")");
    return std::move(*out);
}

std::string describe(const content_block& b);

} // namespace

json::object to_json(const text_content& x, revision r) {
    return block(x, r);
}

json::object to_json(const image_content& x, revision r) {
    return block(x, r);
}

json::object to_json(const audio_content& x, revision r) {
    if (!defines(r, wire_field::audio_content)) {
        return text_block("[audio: " + x.mime_type + ", " + std::to_string(x.data.size()) +
                              " bytes of base64 data omitted]",
                          x.annotations, r);
    }
    return block(x, r);
}

json::object to_json(const text_resource_contents& x, revision r) {
    return write_struct(x, r);
}

json::object to_json(const blob_resource_contents& x, revision r) {
    return write_struct(x, r);
}

json::object to_json(const resource_contents& x, revision r) {
    return std::visit([r](const auto& c) { return to_json(c, r); }, x);
}

json::object to_json(const embedded_resource& x, revision r) {
    return block(x, r);
}

json::object to_json(const resource_link& x, revision r) {
    if (!defines(r, wire_field::resource_link_content)) {
        std::string t = "[resource: " + x.name + " " + x.uri + "]";
        if (x.description) t += " - " + *x.description;
        return text_block(std::move(t), x.annotations, r);
    }
    return block(x, r);
}

json::object to_json(const content_block& x, revision r) {
    return std::visit([r](const auto& c) { return to_json(c, r); }, x);
}

json::array to_json(const std::vector<content_block>& blocks, revision r) {
    json::array a;
    a.reserve(blocks.size());
    for (const auto& b : blocks) a.push_back(to_json(b, r));
    return a;
}

json::object to_json(const tool_use_content& x, revision r) {
    if (!defines(r, wire_field::sampling_tools))
        return text_block("[tool use " + x.id + ": " + x.name + "(" + mcp::to_json(json::value(x.input)) +
                              ")]",
                          std::nullopt, r);
    return block(x, r);
}

json::object to_json(const tool_result_content& x, revision r) {
    if (!defines(r, wire_field::sampling_tools)) {
        std::string t = "[tool result " + x.tool_use_id + (x.is_error.value_or(false) ? " (error)]" : "]");
        for (const auto& b : x.content) t += "\n" + describe(b);
        return text_block(std::move(t), std::nullopt, r);
    }
    json::object o = block(x, r);
    if (x.structured_content && !x.structured_content->is_object() && !defines(r, wire_field::structured_content_any))
        o.erase("structuredContent");
    return o;
}

json::object to_json(const sampling_content& x, revision r) {
    return std::visit([r](const auto& c) { return to_json(c, r); }, x);
}

namespace {

std::string describe(const content_block& b) {
    if (const auto* t = std::get_if<text_content>(&b)) return t->text;
    // Other blocks: the text of their oldest-revision downgrade, or a short tag.
    json::object o = to_json(b, revision::v2024_11_05);
    if (const auto* t = o.if_contains("text"); t && t->is_string()) return std::string(t->get_string());
    if (const auto* ty = o.if_contains("type"); ty && ty->is_string())
        return "[" + std::string(ty->get_string()) + "]";
    return "[content]";
}

} // namespace

resource_contents wire::parse(const json::value& v, std::string_view path, type<resource_contents>) {
    const auto& o = object(v, path);
    if (!member(o, "uri")) fail(join(path, "uri"), "is required");
    if (member(o, "text")) return read_struct<text_resource_contents>(v, path);
    if (member(o, "blob")) return read_struct<blob_resource_contents>(v, path);
    fail(path, "must have \"text\" or \"blob\"");
}

content_block wire::parse(const json::value& v, std::string_view path, type<content_block>) {
    return read_tagged<content_block>(v, path, "content ");
}

sampling_content wire::parse(const json::value& v, std::string_view path, type<sampling_content>) {
    return read_tagged<sampling_content>(v, path, "sampling content ");
}

MCP_WIRE_FROM_JSON(text_content)
MCP_WIRE_FROM_JSON(image_content)
MCP_WIRE_FROM_JSON(audio_content)
MCP_WIRE_FROM_JSON(embedded_resource)
MCP_WIRE_FROM_JSON(resource_link)
MCP_WIRE_FROM_JSON(tool_use_content)
MCP_WIRE_FROM_JSON(tool_result_content)
template <> resource_contents from_json<resource_contents>(const json::value& v) {
    return parse(v, "ResourceContents", type<resource_contents>{});
}
template <> content_block from_json<content_block>(const json::value& v) {
    return parse(v, "ContentBlock", type<content_block>{});
}
template <> sampling_content from_json<sampling_content>(const json::value& v) {
    return parse(v, "SamplingMessageContentBlock", type<sampling_content>{});
}

// --- helpers ---
content_block text(std::string text) {
    return text_content{std::move(text), std::nullopt, std::nullopt};
}
content_block image(std::string data_base64, std::string mime_type) {
    return image_content{std::move(data_base64), std::move(mime_type), std::nullopt, std::nullopt};
}
content_block audio(std::string data_base64, std::string mime_type) {
    return audio_content{std::move(data_base64), std::move(mime_type), std::nullopt, std::nullopt};
}
content_block link_to(std::string uri, std::string name, std::optional<std::string> mime_type,
                      std::optional<std::string> description) {
    resource_link l;
    l.uri = std::move(uri);
    l.name = std::move(name);
    l.mime_type = std::move(mime_type);
    l.description = std::move(description);
    return l;
}
content_block embedded_text(std::string uri, std::string text, std::optional<std::string> mime_type) {
    return embedded_resource{
        text_resource_contents{std::move(uri), std::move(mime_type), std::move(text), std::nullopt},
        std::nullopt, std::nullopt};
}
content_block embedded_blob(std::string uri, std::string blob_base64, std::optional<std::string> mime_type) {
    return embedded_resource{
        blob_resource_contents{std::move(uri), std::move(mime_type), std::move(blob_base64), std::nullopt},
        std::nullopt, std::nullopt};
}
const std::string* text_of(const content_block& b) noexcept {
    const auto* t = std::get_if<text_content>(&b);
    return t ? &t->text : nullptr;
}

} // namespace mcp
