// The approval policy (see mcp/host/approval.hpp).
#include <mcp/host/approval.hpp>

namespace mcp::host {

std::string_view to_string(approval_kind k) noexcept {
    switch (k) {
    case approval_kind::not_needed_all:
        return "approve-all";
    case approval_kind::not_needed_trusted_read_only:
        return "trusted-read-only";
    case approval_kind::user:
        return "user";
    case approval_kind::denied:
        return "denied";
    }
    return "?";
}

std::optional<approval_kind> policy_decision(const approval_policy& policy,
                                             const approval_request& r) noexcept {
    if (policy.approve_all) return approval_kind::not_needed_all;
    const bool trusted = r.server_trusted || policy.trusted_servers.count(r.server) > 0;
    // Annotations are only hints, and an untrusted server could lie in them to skip the user;
    // so readOnlyHint counts only for servers the user trusts.
    if (policy.auto_approve_trusted_read_only && trusted && r.definition && r.definition->annotations &&
        r.definition->annotations->read_only_hint.value_or(false))
        return approval_kind::not_needed_trusted_read_only;
    return std::nullopt;
}

} // namespace mcp::host
