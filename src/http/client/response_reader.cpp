// http/client/response_reader.cpp - the Beast side of response_reader.
#include "response_reader.hpp"

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/optional/optional.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace mcp::http::detail {

namespace beast_http = boost::beast::http;
using boost::system::error_code;

namespace {

class parser final : public beast_http::basic_parser<false> {
public:
    explicit parser(std::size_t max_header) {
        header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(max_header, UINT32_MAX)));
        body_limit(boost::none); // bodies are streamed out and bounded by the layer above
        eager(false);            // stop after the head so that the caller sees it first
    }

    int status = 0;
    std::string reason;
    core::header_list headers;
    const response_reader::body_sink* sink = nullptr;
    bool stopped = false;
    bool body_seen = false;

private:
    void on_request_impl(beast_http::verb, boost::beast::string_view, boost::beast::string_view, int,
                         error_code& ec) override {
        ec = beast_http::error::bad_method; // never called for a response parser
    }

    void on_response_impl(int code, boost::beast::string_view r, int, error_code&) override {
        status = code;
        reason.assign(r.data(), r.size());
    }

    void on_field_impl(beast_http::field, boost::beast::string_view name, boost::beast::string_view value,
                       error_code&) override {
        headers.emplace_back(std::string(name.data(), name.size()), std::string(value.data(), value.size()));
    }

    void on_header_impl(error_code&) override {}
    void on_body_init_impl(const boost::optional<std::uint64_t>&, error_code&) override {}

    std::size_t deliver(boost::beast::string_view body, error_code& ec) {
        body_seen = true;
        if (sink && *sink && !(*sink)(std::string_view(body.data(), body.size()))) {
            stopped = true;
            ec = beast_http::error::body_limit; // any error stops the parser; `stopped` says why
        }
        return body.size();
    }

    std::size_t on_body_impl(boost::beast::string_view body, error_code& ec) override {
        return deliver(body, ec);
    }
    void on_chunk_header_impl(std::uint64_t, boost::beast::string_view, error_code&) override {}
    std::size_t on_chunk_body_impl(std::uint64_t, boost::beast::string_view body, error_code& ec) override {
        return deliver(body, ec);
    }
    void on_finish_impl(error_code&) override {}
};

} // namespace

struct response_reader::impl {
    std::size_t max_header = 0;
    bool head_request = false;
    bool head_reported = false;
    std::optional<parser> p;

    void fresh() {
        p.emplace(max_header);
        if (head_request) p->skip(true);
        head_reported = false;
    }
};

response_reader::response_reader(std::size_t max_header_bytes) : impl_(std::make_unique<impl>()) {
    impl_->max_header = max_header_bytes;
    impl_->fresh();
}

response_reader::~response_reader() = default;

void response_reader::reset(bool head_request) {
    impl_->head_request = head_request;
    impl_->fresh();
    error_.clear();
}

response_reader::result response_reader::parse(std::string_view data, std::size_t& consumed,
                                               const body_sink& sink) {
    consumed = 0;
    if (!error_.empty()) return result::failed;
    error_code ec;
    for (;;) {
        auto& p = *impl_->p;
        p.sink = &sink;
        if (p.is_header_done() && !impl_->head_reported) {
            // Beast takes any three digits; RFC 9110 15 defines 100-599 only (a status of 600 or
            // more has no class to be understood by), and the transport reads status 0 as "no
            // response at all".
            if (p.status < 100 || p.status > 599) {
                error_ = "invalid status code " + std::to_string(p.status);
                return result::failed;
            }
            // An interim response (100 Continue, 103 Early Hints): skip it, the real one follows.
            if (p.status >= 100 && p.status < 200 && p.status != 101) {
                impl_->fresh();
                continue;
            }
            impl_->head_reported = true;
            p.eager(true);
            return result::head;
        }
        if (p.is_done()) return result::complete; // after the head was reported (a bodiless response)
        if (consumed == data.size()) return result::need_more;
        // Beast 1.81 asserts (parse_chunk_header: "n >= 5") when the last chunk of a body with
        // no data chunk ("0\r\n" then one more byte) is offered again with fewer than 5 bytes.
        // Only a body that has delivered nothing yet can be in that state, and fewer than 5
        // bytes cannot hold a whole data chunk, so holding them back delays no data.
        if (p.is_header_done() && p.chunked() && !p.body_seen && data.size() - consumed < 5)
            return result::need_more;
        const std::size_t n =
            p.put(boost::asio::const_buffer(data.data() + consumed, data.size() - consumed), ec);
        consumed += n;
        if (ec == beast_http::error::need_more) {
            ec = {};
            if (!(p.is_header_done() && !impl_->head_reported)) return need_more(data.size() - consumed);
            continue;
        }
        if (ec) {
            error_ = p.stopped ? "stopped" : ec.message();
            return result::failed;
        }
        if (n == 0 && !p.is_done() && !(p.is_header_done() && !impl_->head_reported))
            return need_more(data.size() - consumed);
    }
}

response_reader::result response_reader::need_more(std::size_t unconsumed) {
    // Beast bounds the head (header_limit) and streams body bytes out, but keeps a chunk header
    // (chunk extensions) or the trailer fields whole until their line ends, without a limit: a
    // server sending an endless one would have the caller buffer it all.
    if (impl_->p->is_header_done() && unconsumed > impl_->max_header) {
        error_ = "a chunk header or trailer longer than " + std::to_string(impl_->max_header) + " bytes";
        return result::failed;
    }
    return result::need_more;
}

response_reader::result response_reader::eof(const body_sink& sink) {
    if (!error_.empty()) return result::failed;
    auto& p = *impl_->p;
    p.sink = &sink;
    if (p.is_done()) return result::complete;
    if (!p.got_some()) {
        // Nothing of a response at all. (Beast's put_eof would take an empty response for a
        // complete one, of status 0.)
        error_ = "the connection closed before a response arrived";
        return result::failed;
    }
    error_code ec;
    p.put_eof(ec);
    if (ec) {
        error_ =
            p.got_some() ? "the connection closed in the middle of the response" : "the connection closed";
        return result::failed;
    }
    return p.is_done() ? result::complete : result::failed;
}

int response_reader::status() const {
    return impl_->p->status;
}
const std::string& response_reader::reason() const {
    return impl_->p->reason;
}
core::header_list& response_reader::headers() {
    return impl_->p->headers;
}
bool response_reader::head_done() const {
    return impl_->head_reported;
}
bool response_reader::got_some() const {
    return impl_->p->got_some();
}
bool response_reader::keep_alive() const {
    return impl_->p->keep_alive();
}

} // namespace mcp::http::detail
