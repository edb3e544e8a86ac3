// mcp/host/approval.hpp - the human in the loop: which tool calls need the user's approval, and
// the interface through which the user is asked.
//
// The MCP spec says hosts should let the user confirm tool calls and treat tool annotations as
// untrusted unless they come from a trusted server. The default policy here: a call runs without
// asking only when the user marked its server trusted (config `trust: true`, or
// approval_policy::trusted_servers) AND the tool says it is read-only (annotations.readOnlyHint).
// Everything else is asked, and with no approver it is denied.
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/protocol/tool.hpp>

#include <optional>
#include <set>
#include <stdexcept>
#include <string>

namespace mcp::host {

/// A tool call waiting for a decision.
struct approval_request {
    std::string server;
    std::string tool;
    std::string qualified_name; ///< its catalogue name (server__tool)
    json::object arguments;
    std::optional<mcp::tool> definition; ///< as listed (nullopt if the tool was not listed)
    bool server_trusted = false;
};

/// Asks the user. Called on the thread that makes the call; may block while the user decides.
class approver {
public:
    virtual ~approver() = default;
    /// True to let the call run. May throw call_denied to refuse with a reason of its own (e.g.
    /// that there is nobody to ask); any exception refuses the call (manager::call_tool audits
    /// it as denied and passes the exception on).
    virtual bool approve(const approval_request& request) = 0;
};

struct approval_policy {
    /// Run every call without asking (the CLI's --yes).
    bool approve_all = false;
    /// Run read-only tools of trusted servers without asking.
    bool auto_approve_trusted_read_only = true;
    /// Servers trusted in addition to those whose config says `trust: true`.
    std::set<std::string> trusted_servers;
};

/// How a call came to be allowed (written to the audit log).
enum class approval_kind { not_needed_all, not_needed_trusted_read_only, user, denied };
std::string_view to_string(approval_kind k) noexcept;

/// Whether the policy alone allows the call (and why); nullopt: the user must be asked.
std::optional<approval_kind> policy_decision(const approval_policy& policy,
                                             const approval_request& request) noexcept;

/// A call the user (or the lack of an approver) refused.
class call_denied : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace mcp::host
