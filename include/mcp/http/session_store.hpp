// mcp/http/session_store.hpp - the record of each Streamable HTTP session (initialize era) kept
// outside the process's memory of live connections: which session ids exist, their negotiated
// revision and client, and when they were last used.
//
// The HTTP server consults it to tell a known session from an unknown one (404) and to expire
// idle sessions; a shared implementation (Redis, a later issue) lets replicas agree on which
// sessions exist. memory_session_store is the in-process default.
#pragma once

#include <mcp/json/json.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::http {

struct session_record {
    std::string id;
    json::object data; ///< protocolVersion, clientInfo, capabilities (as JSON)
    std::chrono::system_clock::time_point last_used;
};

class session_store {
public:
    virtual ~session_store() = default;
    virtual void put(const session_record& record) = 0;
    virtual std::optional<session_record> get(std::string_view id) = 0;
    virtual void touch(std::string_view id, std::chrono::system_clock::time_point when) = 0;
    virtual void remove(std::string_view id) = 0;
    /// Ids of sessions not used since `cutoff`.
    virtual std::vector<std::string> idle_since(std::chrono::system_clock::time_point cutoff) = 0;
};

class memory_session_store final : public session_store {
public:
    memory_session_store();
    ~memory_session_store() override;
    void put(const session_record& record) override;
    std::optional<session_record> get(std::string_view id) override;
    void touch(std::string_view id, std::chrono::system_clock::time_point when) override;
    void remove(std::string_view id) override;
    std::vector<std::string> idle_since(std::chrono::system_clock::time_point cutoff) override;
    std::size_t size() const;

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

} // namespace mcp::http
