// Codec of content blocks and resource contents, with the downgrade of content types a revision
// does not define (see content.hpp).
#include "protocol/wire.hpp"

namespace mcp {

using namespace wire;

namespace {

json::object text_block(std::string text, const std::optional<annotations>& a, revision r) {
    json::object o;
    o["type"] = "text";
    o["text"] = std::move(text);
    put_annotations(o, a, r);
    return o;
}

bool meta_ok(revision r) {
    return defines(r, wire_field::entity_meta);
}

template <class T> void put_common(json::object& o, const T& x, revision r) {
    put_annotations(o, x.annotations, r);
    put_meta(o, x.meta, meta_ok(r));
}

std::string describe(const content_block& b);

} // namespace

json::object to_json(const text_content& x, revision r) {
    json::object o;
    o["type"] = "text";
    o["text"] = x.text;
    put_common(o, x, r);
    return o;
}

json::object to_json(const image_content& x, revision r) {
    json::object o;
    o["type"] = "image";
    o["data"] = x.data;
    o["mimeType"] = x.mime_type;
    put_common(o, x, r);
    return o;
}

json::object to_json(const audio_content& x, revision r) {
    if (!defines(r, wire_field::audio_content)) {
        return text_block("[audio: " + x.mime_type + ", " + std::to_string(x.data.size()) +
                              " bytes of base64 data omitted]",
                          x.annotations, r);
    }
    json::object o;
    o["type"] = "audio";
    o["data"] = x.data;
    o["mimeType"] = x.mime_type;
    put_common(o, x, r);
    return o;
}

json::object to_json(const text_resource_contents& x, revision r) {
    json::object o;
    o["uri"] = x.uri;
    put(o, "mimeType", x.mime_type);
    o["text"] = x.text;
    put_meta(o, x.meta, meta_ok(r));
    return o;
}

json::object to_json(const blob_resource_contents& x, revision r) {
    json::object o;
    o["uri"] = x.uri;
    put(o, "mimeType", x.mime_type);
    o["blob"] = x.blob;
    put_meta(o, x.meta, meta_ok(r));
    return o;
}

json::object to_json(const resource_contents& x, revision r) {
    return std::visit([r](const auto& c) { return to_json(c, r); }, x);
}

json::object to_json(const embedded_resource& x, revision r) {
    json::object o;
    o["type"] = "resource";
    o["resource"] = to_json(x.resource, r);
    put_common(o, x, r);
    return o;
}

json::object to_json(const resource_link& x, revision r) {
    if (!defines(r, wire_field::resource_link_content)) {
        std::string t = "[resource: " + x.name + " " + x.uri + "]";
        if (x.description) t += " - " + *x.description;
        return text_block(std::move(t), x.annotations, r);
    }
    json::object o;
    o["type"] = "resource_link";
    o["uri"] = x.uri;
    o["name"] = x.name;
    put(o, "title", x.title);
    put(o, "description", x.description);
    put(o, "mimeType", x.mime_type);
    put(o, "size", x.size);
    put_icons(o, x.icons, r);
    put_common(o, x, r);
    return o;
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
    json::object o;
    o["type"] = "tool_use";
    o["id"] = x.id;
    o["name"] = x.name;
    o["input"] = x.input;
    put_meta(o, x.meta, true);
    return o;
}

json::object to_json(const tool_result_content& x, revision r) {
    if (!defines(r, wire_field::sampling_tools)) {
        std::string t = "[tool result " + x.tool_use_id + (x.is_error.value_or(false) ? " (error)]" : "]");
        for (const auto& b : x.content) t += "\n" + describe(b);
        return text_block(std::move(t), std::nullopt, r);
    }
    json::object o;
    o["type"] = "tool_result";
    o["toolUseId"] = x.tool_use_id;
    o["content"] = to_json(x.content, r);
    if (x.structured_content &&
        (x.structured_content->is_object() || defines(r, wire_field::structured_content_any)))
        o["structuredContent"] = *x.structured_content;
    put(o, "isError", x.is_error);
    put_meta(o, x.meta, true);
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

template <class T> void read_common(T& x, const json::object& o, std::string_view path) {
    x.annotations = opt_annotations(o, path);
    x.meta = meta(o, path);
}

text_content read_text(const json::object& o, std::string_view path) {
    text_content x;
    x.text = req_string(o, "text", path);
    read_common(x, o, path);
    return x;
}
template <class T> T read_media(const json::object& o, std::string_view path) {
    T x;
    x.data = req_string(o, "data", path);
    x.mime_type = req_string(o, "mimeType", path);
    read_common(x, o, path);
    return x;
}
embedded_resource read_embedded(const json::object& o, std::string_view path) {
    embedded_resource x;
    const auto* r = member(o, "resource");
    if (!r) fail(join(path, "resource"), "is required");
    x.resource = read_resource_contents(*r, join(path, "resource"));
    read_common(x, o, path);
    return x;
}
resource_link read_link(const json::object& o, std::string_view path) {
    resource_link x;
    x.uri = req_string(o, "uri", path);
    x.name = req_string(o, "name", path);
    x.title = opt_string(o, "title", path);
    x.description = opt_string(o, "description", path);
    x.mime_type = opt_string(o, "mimeType", path);
    x.size = opt_int(o, "size", path);
    x.icons = read_icons(o, path);
    read_common(x, o, path);
    return x;
}
tool_use_content read_tool_use(const json::object& o, std::string_view path) {
    tool_use_content x;
    x.id = req_string(o, "id", path);
    x.name = req_string(o, "name", path);
    x.input = req_object(o, "input", path);
    x.meta = meta(o, path);
    return x;
}
tool_result_content read_tool_result(const json::object& o, std::string_view path) {
    tool_result_content x;
    x.tool_use_id = req_string(o, "toolUseId", path);
    x.content = read_content_blocks(req_array(o, "content", path), join(path, "content"));
    if (const auto* s = member(o, "structuredContent")) x.structured_content = *s;
    x.is_error = opt_bool(o, "isError", path);
    x.meta = meta(o, path);
    return x;
}

std::string type_of(const json::object& o, std::string_view path) {
    return req_string(o, "type", path);
}

} // namespace

resource_contents wire::read_resource_contents(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    auto uri = req_string(o, "uri", path);
    auto mime = opt_string(o, "mimeType", path);
    auto m = meta(o, path);
    if (member(o, "text")) return text_resource_contents{uri, mime, req_string(o, "text", path), m};
    if (member(o, "blob")) return blob_resource_contents{uri, mime, req_string(o, "blob", path), m};
    fail(path, "must have \"text\" or \"blob\"");
}

content_block wire::read_content_block(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    auto t = type_of(o, path);
    if (t == "text") return read_text(o, path);
    if (t == "image") return read_media<image_content>(o, path);
    if (t == "audio") return read_media<audio_content>(o, path);
    if (t == "resource") return read_embedded(o, path);
    if (t == "resource_link") return read_link(o, path);
    fail(join(path, "type"), "is not a known content type (\"" + t + "\")");
}

std::vector<content_block> wire::read_content_blocks(const json::array& a, std::string_view path) {
    return each<content_block>(a, path, read_content_block);
}

sampling_content wire::read_sampling_content(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    auto t = type_of(o, path);
    if (t == "text") return read_text(o, path);
    if (t == "image") return read_media<image_content>(o, path);
    if (t == "audio") return read_media<audio_content>(o, path);
    if (t == "tool_use") return read_tool_use(o, path);
    if (t == "tool_result") return read_tool_result(o, path);
    fail(join(path, "type"), "is not a known sampling content type (\"" + t + "\")");
}

template <> text_content from_json<text_content>(const json::value& v) {
    return read_text(object(v, "TextContent"), "TextContent");
}
template <> image_content from_json<image_content>(const json::value& v) {
    return read_media<image_content>(object(v, "ImageContent"), "ImageContent");
}
template <> audio_content from_json<audio_content>(const json::value& v) {
    return read_media<audio_content>(object(v, "AudioContent"), "AudioContent");
}
template <> resource_contents from_json<resource_contents>(const json::value& v) {
    return read_resource_contents(v, "ResourceContents");
}
template <> embedded_resource from_json<embedded_resource>(const json::value& v) {
    return read_embedded(object(v, "EmbeddedResource"), "EmbeddedResource");
}
template <> resource_link from_json<resource_link>(const json::value& v) {
    return read_link(object(v, "ResourceLink"), "ResourceLink");
}
template <> content_block from_json<content_block>(const json::value& v) {
    return read_content_block(v, "ContentBlock");
}
template <> tool_use_content from_json<tool_use_content>(const json::value& v) {
    return read_tool_use(object(v, "ToolUseContent"), "ToolUseContent");
}
template <> tool_result_content from_json<tool_result_content>(const json::value& v) {
    return read_tool_result(object(v, "ToolResultContent"), "ToolResultContent");
}
template <> sampling_content from_json<sampling_content>(const json::value& v) {
    return read_sampling_content(v, "SamplingMessageContentBlock");
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
