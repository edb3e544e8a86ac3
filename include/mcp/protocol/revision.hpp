// mcp/protocol/revision.hpp - the MCP protocol revisions mcpxx speaks, and the facts about each
// that the rest of the library asks for. Revision rules live here and in the wire codec
// (mcp/protocol/codec.hpp), nowhere else.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace mcp {

enum class revision {
    v2024_11_05, ///< initial release: stdio + HTTP+SSE
    v2025_03_26, ///< Streamable HTTP, batching, tool annotations, audio, completions capability
    v2025_06_18, ///< structured output, elicitation, resource links, titles, no batching
    v2025_11_25, ///< icons, URL elicitation, tools in sampling, tasks, 2020-12 schemas
    v2026_07_28, ///< stateless era: no initialize, server/discover, per-request _meta, MRTR
};

inline constexpr std::array all_revisions = {revision::v2024_11_05, revision::v2025_03_26,
                                             revision::v2025_06_18, revision::v2025_11_25,
                                             revision::v2026_07_28};
/// The newest revision of the initialize era (what an initialize-era counter-offer names).
inline constexpr revision latest_initialize_revision = revision::v2025_11_25;
inline constexpr revision latest_revision = revision::v2026_07_28;

constexpr std::string_view to_string(revision r) noexcept {
    switch (r) {
    case revision::v2024_11_05:
        return "2024-11-05";
    case revision::v2025_03_26:
        return "2025-03-26";
    case revision::v2025_06_18:
        return "2025-06-18";
    case revision::v2025_11_25:
        return "2025-11-25";
    case revision::v2026_07_28:
        return "2026-07-28";
    }
    return "";
}

constexpr std::optional<revision> parse_revision(std::string_view s) noexcept {
    for (auto r : all_revisions)
        if (to_string(r) == s) return r;
    return std::nullopt;
}

/// True for revisions that open with initialize (2024-11-05 .. 2025-11-25).
constexpr bool is_initialize_era(revision r) noexcept {
    return r <= revision::v2025_11_25;
}
/// JSON-RPC batches may be received only under 2025-03-26.
constexpr bool allows_batches(revision r) noexcept {
    return r == revision::v2025_03_26;
}
/// From 2025-11-25 on, an error reply whose request id could not be read omits `id`;
/// earlier schemas require the member, so it is sent as null.
constexpr bool omits_unknown_error_id(revision r) noexcept {
    return r >= revision::v2025_11_25;
}
/// SSE polling of Streamable HTTP, from 2025-11-25 on: a server's stream may open with a priming
/// event (an id and empty data) and the server may end the connection before the response,
/// the client resuming after `retry`. Older clients take an event with empty data for a
/// message and expect a request's stream to stay open until its response; 2026-07-28 has no
/// resumption at all.
constexpr bool has_sse_polling(revision r) noexcept {
    return r >= revision::v2025_11_25 && is_initialize_era(r);
}

} // namespace mcp
