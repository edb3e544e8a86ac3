// http/request_reader.cpp - the Beast side of request_reader (the only Beast TU; the connection
// code in http_server.cpp uses Asio only).
#include "request_reader.hpp"

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/optional/optional.hpp>

#include <algorithm>
#include <optional>

namespace mcp::http::core::detail {

namespace beast_http = boost::beast::http;
using boost::system::error_code;

namespace {

std::string_view sv(boost::beast::string_view s) {
    return {s.data(), s.size()};
}

// Trim optional whitespace (SP / HTAB) around a field value or list element.
std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// True if the request line at the start of `data` ends in a well-formed "HTTP/d.d": Beast's
// bad_version then means a version we do not speak (505) rather than a malformed line (400).
bool well_formed_version(std::string_view data) {
    const auto eol = data.find("\r\n");
    if (eol == std::string_view::npos) return false;
    const std::string_view line = data.substr(0, eol);
    const auto sp = line.rfind(' ');
    if (sp == std::string_view::npos) return false;
    const std::string_view v = line.substr(sp + 1);
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    return v.size() == 8 && v.substr(0, 5) == "HTTP/" && digit(v[5]) && v[6] == '.' && digit(v[7]);
}

// Builds an mcp::http::request straight from the parser's callbacks: no intermediate field
// container, so a request costs its own strings and nothing else.
class parser final : public beast_http::basic_parser<true> {
public:
    parser(std::size_t max_header, std::size_t max_body) {
        header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(max_header, UINT32_MAX)));
        body_limit(static_cast<std::uint64_t>(max_body));
        eager(true); // parse the body in the same put() as the head when it is there
        msg.headers.reserve(12);
    }

    request msg;
    int host_fields = 0;
    bool expect_continue = false;
    bool is_head = false;
    int failure = 0; // a status chosen by our own checks (otherwise mapped from the error)

private:
    void on_request_impl(beast_http::verb method, boost::beast::string_view method_str,
                         boost::beast::string_view target, int version, error_code&) override {
        // Beast has already refused every version but 1.0 and 1.1 (see well_formed_version).
        msg.method.assign(method_str.data(), method_str.size());
        msg.target.assign(target.data(), target.size());
        msg.version = version;
        is_head = method == beast_http::verb::head;
    }

    void on_response_impl(int, boost::beast::string_view, int, error_code& ec) override {
        ec = beast_http::error::bad_version; // never called for a request parser
    }

    void on_field_impl(beast_http::field f, boost::beast::string_view name, boost::beast::string_view value,
                       error_code& ec) override {
        switch (f) {
        case beast_http::field::host:
            ++host_fields;
            break;
        case beast_http::field::expect:
            // The only expectation defined is 100-continue; others are ignored (RFC 9110 10.1.1
            // allows answering 417, but ignoring is what most servers do).
            if (iequals(trim(sv(value)), "100-continue")) expect_continue = true;
            break;
        case beast_http::field::transfer_encoding:
            // Beast has already rejected duplicates and Transfer-Encoding next to
            // Content-Length. We decode "chunked" only: anything else (gzip, "gzip, chunked",
            // "chunked, chunked") would leave the body length undefined or undecoded.
            if (!iequals(trim(sv(value)), "chunked")) {
                failure = 501;
                ec = beast_http::error::bad_transfer_encoding;
                return;
            }
            break;
        default:
            break;
        }
        msg.headers.emplace_back(std::string(name.data(), name.size()),
                                 std::string(value.data(), value.size()));
    }

    void on_header_impl(error_code& ec) override {
        // RFC 9112 3.2: a HTTP/1.1 request without Host, or any request with several, gets 400.
        if (host_fields > 1 || (msg.version >= 11 && host_fields == 0)) {
            failure = 400;
            ec = beast_http::error::bad_value;
        }
    }

    void on_body_init_impl(const boost::optional<std::uint64_t>& length, error_code&) override {
        // Within body_limit already (Beast checks the announced length first). The reservation
        // is capped: an announced length costs memory only once its bytes actually arrive, so a
        // client cannot make every idle connection hold max_body_bytes.
        if (length) msg.body.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(*length, 64 * 1024)));
    }

    std::size_t on_body_impl(boost::beast::string_view body, error_code&) override {
        msg.body.append(body.data(), body.size());
        return body.size();
    }

    void on_chunk_header_impl(std::uint64_t, boost::beast::string_view, error_code&) override {}

    std::size_t on_chunk_body_impl(std::uint64_t, boost::beast::string_view body, error_code&) override {
        msg.body.append(body.data(), body.size());
        return body.size();
    }

    void on_finish_impl(error_code&) override {}
};

} // namespace

struct request_reader::impl {
    std::size_t max_header = 0;
    std::size_t max_body = 0;
    // Beast parsers are single-use; emplacing a new one is cheap (no allocation).
    std::optional<parser> p;
};

request_reader::request_reader(std::size_t max_header_bytes, std::size_t max_body_bytes)
    : impl_(std::make_unique<impl>()) {
    impl_->max_header = max_header_bytes;
    impl_->max_body = max_body_bytes;
    impl_->p.emplace(max_header_bytes, max_body_bytes);
}

request_reader::~request_reader() = default;

void request_reader::next() {
    failure_status_ = 0;
    impl_->p.emplace(impl_->max_header, impl_->max_body);
}

request_reader::result request_reader::parse(std::string_view data, std::size_t& consumed) {
    consumed = 0;
    auto& p = *impl_->p;
    if (failure_status_ != 0) return result::failed;
    if (p.is_done()) return result::complete;
    error_code ec;
    // Beast parses one buffer at a time; we loop because put() may stop at the end of the head
    // or between chunks while more bytes are available.
    while (consumed < data.size()) {
        // Beast 1.81 asserts (basic_parser.ipp, parse_chunk_header: "n >= 5") when the last
        // chunk is offered again with fewer than 5 bytes, which a client sending one byte at a
        // time achieves ("0\r\n" + 1 byte): an abort in builds with assertions on. Holding back
        // such a short tail is harmless: an unfinished chunked body always has at least 5 more
        // bytes to come (its last chunk "0\r\n\r\n" is only consumed once complete).
        if (p.is_header_done() && p.chunked() && data.size() - consumed < 5) return result::need_more;
        std::size_t n = p.put(boost::asio::const_buffer(data.data() + consumed, data.size() - consumed), ec);
        consumed += n;
        if (ec == beast_http::error::need_more) return result::need_more;
        if (ec) {
            if (p.failure != 0)
                failure_status_ = p.failure;
            else if (ec == beast_http::error::header_limit)
                failure_status_ = 431;
            else if (ec == beast_http::error::body_limit)
                failure_status_ = 413;
            else if (ec == beast_http::error::bad_version && well_formed_version(data))
                failure_status_ = 505; // HTTP/2.0, HTTP/1.2, ... (Beast takes 1.0 and 1.1 only)
            else
                failure_status_ = 400;
            return result::failed;
        }
        if (p.is_done()) return result::complete;
        if (n == 0) return result::need_more;
    }
    return p.is_done() ? result::complete : result::need_more;
}

request request_reader::take() {
    return std::move(impl_->p->msg);
}

bool request_reader::started() const {
    return impl_->p->got_some();
}
bool request_reader::header_done() const {
    return impl_->p->is_header_done();
}
bool request_reader::expects_continue() const {
    const auto& p = *impl_->p;
    return p.expect_continue && p.msg.version >= 11 && p.is_header_done() && !p.is_done();
}
bool request_reader::keep_alive() const {
    return impl_->p->keep_alive();
}
bool request_reader::is_head() const {
    return impl_->p->is_head;
}
int request_reader::version() const {
    return impl_->p->msg.version;
}

} // namespace mcp::http::core::detail
