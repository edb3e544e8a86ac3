// Host and Origin validation against DNS rebinding (Streamable HTTP: MUST validate Origin, 403 when
// invalid; loopback servers also check Host, since a rebinding page's requests carry the
// attacker's host name).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::http::detail {

struct host_and_port;
struct origin;

class origin_check {
public:
    /// `hosts` / `origins` as in mcp::http::server_options; `bound_to_loopback` decides the
    /// defaults when they are empty.
    origin_check(std::vector<std::string> hosts, std::vector<std::string> origins, bool bound_to_loopback);
    struct refusal {
        int status; ///< 400 for a malformed Host (RFC 9112 3.2), else 403
        std::string message;
    };
    /// nullopt when acceptable; otherwise the status and the reason. Host and Origin are parsed
    /// first (authority.hpp): a malformed one is refused even where names are not checked.
    std::optional<refusal> check(std::optional<std::string_view> host,
                                 std::optional<std::string_view> origin) const;

    /// "localhost", an address of 127.0.0.0/8, "[::1]" (with or without a port).
    static bool is_loopback_host(std::string_view host_and_port);

private:
    bool host_ok(std::string_view value, const host_and_port& host) const;
    bool origin_ok(std::string_view value, const origin& o) const;
    std::vector<std::string> hosts_, origins_;
    bool check_hosts_ = true, check_origins_ = true;
    bool loopback_hosts_ = false, loopback_origins_ = false;
};

} // namespace mcp::http::detail
