// libFuzzer harness: arbitrary bytes as a Host and as an Origin header value
// (src/http/authority.hpp), the values a DNS-rebinding page controls. Whatever parses must be
// well formed - a non-empty host without user information, a port of at most 5 digits up to
// 65535, a lower-case scheme - and must parse again to the same thing once written back
// ("host[:port]", "scheme://host[:port]"): a value is read one way only.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DMCPXX_BUILD_FUZZ=ON ...; run: build/fuzz/authority_fuzz
#include "http/authority.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

using mcp::http::detail::host_and_port;

void check(bool ok) {
    if (!ok) std::abort();
}

std::string written(const host_and_port& h) {
    return h.port.empty() ? h.host : h.host + ":" + h.port;
}

bool same(const host_and_port& a, const host_and_port& b) {
    return a.type == b.type && a.host == b.host && a.port == b.port && a.loopback == b.loopback;
}

void check_well_formed(const host_and_port& h) {
    check(!h.host.empty());
    check(h.host.find('@') == std::string::npos);
    check(h.port.size() <= 5);
    check(std::all_of(h.port.begin(), h.port.end(), [](unsigned char c) { return std::isdigit(c); }));
    check(h.port.empty() || std::stoul(h.port) <= 65535);
    check((h.type == host_and_port::kind::ipv6 || h.type == host_and_port::kind::ipvfuture) ==
          (h.host.front() == '['));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view value(reinterpret_cast<const char*>(data), size);
    if (auto h = mcp::http::detail::parse_host(value)) {
        check_well_formed(*h);
        auto again = mcp::http::detail::parse_host(written(*h));
        check(again && same(*h, *again));
    }
    if (auto o = mcp::http::detail::parse_origin(value)) {
        if (o->opaque) {
            check(value == "null");
        } else {
            check(!o->scheme.empty());
            check(std::none_of(o->scheme.begin(), o->scheme.end(), [](unsigned char c) { return std::isupper(c); }));
            check_well_formed(o->authority);
            auto again = mcp::http::detail::parse_origin(o->scheme + "://" + written(o->authority));
            check(again && !again->opaque && again->scheme == o->scheme && same(again->authority, o->authority));
        }
    }
    return 0;
}
