// Checks emitted messages against the official MCP schema of one revision
// (tests/data/mcp-schema/<revision>/schema.json) with our own JSON Schema validator: the whole message
// against JSONRPCMessage, a request or notification against the definition whose `method` is its
// method, and a result against the result definition of the request it answers.
#pragma once

#include <mcp/protocol/revision.hpp>
#include <mcp/schema/validator.hpp>

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcp::test {

class wire_schema {
public:
    explicit wire_schema(revision r);

    /// Problems found in `message` (empty when it conforms). `request_method` is the method of
    /// the request a response answers (nullopt when unknown: then only the envelope is checked).
    std::vector<std::string> check(const json::value& message,
                                   std::optional<std::string> request_method) const;

    /// The definition name for a method ("tools/call" -> "CallToolRequest"); empty if none.
    std::string definition_of_method(std::string_view method) const;
    /// The result definition of a request method ("tools/call" -> "CallToolResult").
    std::string result_definition_of(std::string_view method) const;
    revision rev() const { return rev_; }

private:
    const schema::validator& validator_for(const std::string& definition) const;
    std::vector<std::string> run(const std::string& definition, const json::value& instance,
                                 const char* what) const;

    revision rev_;
    json::value doc_;
    std::string defs_key_;
    std::map<std::string, std::string, std::less<>> method_defs_;
    mutable std::mutex mu_;
    mutable std::map<std::string, schema::validator> cache_;
};

/// Records every message two peers exchange (in both directions) and checks each against the
/// schema, pairing responses with the requests they answer.
class wire_recorder {
public:
    explicit wire_recorder(revision r) : schema_(r) {}
    /// Feed one message sent by side `from` (0 or 1).
    void record(int from, std::string_view text);
    /// Check only what side `side` sends (the other side's messages still pair responses with
    /// requests): for tests that send malformed messages on purpose.
    void check_only(int side) { checked_side_ = side; }
    /// Every problem found so far, each prefixed with the offending message.
    std::vector<std::string> problems() const;
    std::size_t messages() const;
    /// Methods seen (requests and notifications), for coverage assertions.
    std::vector<std::string> methods() const;

private:
    wire_schema schema_;
    mutable std::mutex mu_;
    std::map<std::string, std::string> pending_[2]; // request id (as JSON text) -> method, by sender
    std::vector<std::string> problems_;
    std::vector<std::string> methods_;
    std::size_t count_ = 0;
    std::optional<int> checked_side_;
};

} // namespace mcp::test
