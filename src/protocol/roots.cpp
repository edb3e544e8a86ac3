// Codec of roots/list.
#include "protocol/described.hpp"

namespace mcp {

MCP_WIRE_DESCRIBE(root, "Root", (uri), (name), (meta, when(wire_field::entity_meta)))
MCP_WIRE_CODEC(root)

MCP_WIRE_DESCRIBE(list_roots_result, "ListRootsResult", (roots, field::required),
                  (meta, when(wire_field::client_result_meta)))
MCP_WIRE_CODEC(list_roots_result)

} // namespace mcp
