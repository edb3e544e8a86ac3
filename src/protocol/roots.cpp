// Codec of roots/list.
#include "protocol/wire.hpp"

namespace mcp {

using namespace wire;

namespace {
root read_root(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    return {req_string(o, "uri", path), opt_string(o, "name", path), meta(o, path)};
}
} // namespace

json::object to_json(const root& x, revision r) {
    json::object o;
    o["uri"] = x.uri;
    put(o, "name", x.name);
    put_meta(o, x.meta, defines(r, wire_field::entity_meta));
    return o;
}
template <> root from_json<root>(const json::value& v) {
    return read_root(v, "Root");
}

json::object to_json(const list_roots_result& x, revision r) {
    json::object o;
    json::array a;
    a.reserve(x.roots.size());
    for (const auto& i : x.roots) a.push_back(to_json(i, r));
    o["roots"] = std::move(a);
    put_meta(o, x.meta, defines(r, wire_field::client_result_meta));
    return o;
}
template <> list_roots_result from_json<list_roots_result>(const json::value& v) {
    constexpr std::string_view path = "ListRootsResult";
    const auto& o = object(v, path);
    return {each<root>(req_array(o, "roots", path), join(path, "roots"), read_root), meta(o, path)};
}

} // namespace mcp
