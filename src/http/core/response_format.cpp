// http/core/response_format.cpp - response heads, chunks and the server's own error responses.
#include "response_format.hpp"

#include <charconv>
#include <ctime>
#include <stdexcept>

namespace mcp::http::core::detail {

std::string_view reason_phrase(int status) noexcept {
    // One status per line reads as a table: kept out of clang-format.
    // clang-format off
    switch (status) {
    case 100: return "Continue";
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 203: return "Non-Authoritative Information";
    case 204: return "No Content";
    case 205: return "Reset Content";
    case 206: return "Partial Content";
    case 300: return "Multiple Choices";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 416: return "Range Not Satisfiable";
    case 417: return "Expectation Failed";
    case 421: return "Misdirected Request";
    case 422: return "Unprocessable Content";
    case 426: return "Upgrade Required";
    case 428: return "Precondition Required";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
    }
    // clang-format on
}

bool valid_field_name(std::string_view name) noexcept {
    if (name.empty()) return false;
    for (char ch : name) {
        auto c = static_cast<unsigned char>(ch);
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        // RFC 9110 tchar: the punctuation a token may hold besides letters and digits.
        if (!ok)
            ok = c != 0 &&
                 std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
        if (!ok) return false;
    }
    return true;
}

bool valid_field_value(std::string_view value) noexcept {
    for (char c : value)
        if (c == '\r' || c == '\n' || c == '\0') return false;
    return true;
}

head_check check_head(int status, const header_list& headers) {
    if (status < 200 || status > 999)
        throw std::invalid_argument("mcp::http: response status " + std::to_string(status) +
                                    " is not a final status (200..999)");
    head_check r;
    for (const auto& [name, value] : headers) {
        if (!valid_field_name(name))
            throw std::invalid_argument("mcp::http: invalid response header name '" + name + "'");
        if (!valid_field_value(value))
            throw std::invalid_argument("mcp::http: response header '" + name +
                                        "' has a CR, LF or NUL in its value");
        if (iequals(name, "Connection")) {
            // A comma-separated token list; we only act on "close".
            std::string_view v = value;
            while (!v.empty()) {
                auto comma = v.find(',');
                std::string_view tok = v.substr(0, comma);
                while (!tok.empty() && (tok.front() == ' ' || tok.front() == '\t')) tok.remove_prefix(1);
                while (!tok.empty() && (tok.back() == ' ' || tok.back() == '\t')) tok.remove_suffix(1);
                if (iequals(tok, "close")) r.connection_close = true;
                if (comma == std::string_view::npos) break;
                v.remove_prefix(comma + 1);
            }
        } else if (iequals(name, "Date")) {
            r.has_date = true;
        }
    }
    return r;
}

namespace {

// RFC 9110 IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT". Formatted at most once per
// second per thread; strftime is avoided because %a / %b follow the process locale.
std::string_view http_date() {
    struct cache {
        std::time_t second = -1;
        char text[29] = {};
    };
    thread_local cache c;
    std::time_t now = std::time(nullptr);
    if (now != c.second) {
        static constexpr const char days[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
        static constexpr const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
        std::tm tm{};
        ::gmtime_r(&now, &tm);
        auto two = [](char* p, int v) {
            p[0] = static_cast<char>('0' + v / 10);
            p[1] = static_cast<char>('0' + v % 10);
        };
        char* p = c.text;
        for (int i = 0; i < 3; ++i) *p++ = days[tm.tm_wday % 7][i];
        *p++ = ',';
        *p++ = ' ';
        two(p, tm.tm_mday);
        p += 2;
        *p++ = ' ';
        for (int i = 0; i < 3; ++i) *p++ = months[tm.tm_mon % 12][i];
        *p++ = ' ';
        int year = tm.tm_year + 1900;
        two(p, (year / 100) % 100);
        two(p + 2, year % 100);
        p += 4;
        *p++ = ' ';
        two(p, tm.tm_hour);
        p[2] = ':';
        two(p + 3, tm.tm_min);
        p[5] = ':';
        two(p + 6, tm.tm_sec);
        p += 8;
        for (char ch : std::string_view(" GMT")) *p++ = ch;
        c.second = now;
    }
    return {c.text, sizeof c.text};
}

void append_number(std::string& out, std::size_t v, int base = 10) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v, base);
    out.append(buf, r.ptr);
}

} // namespace

void append_head(std::string& out, int status, const header_list& headers, const head_check& check, framing f,
                 std::size_t length, connection_field c) {
    out += "HTTP/1.1 ";
    append_number(out, static_cast<std::size_t>(status));
    out += ' ';
    out += reason_phrase(status);
    out += "\r\n";
    for (const auto& [name, value] : headers) {
        if (iequals(name, "Content-Length") || iequals(name, "Transfer-Encoding") ||
            iequals(name, "Connection"))
            continue;
        out += name;
        out += ": ";
        out += value;
        out += "\r\n";
    }
    if (!check.has_date) {
        out += "Date: ";
        out += http_date();
        out += "\r\n";
    }
    switch (f) {
    case framing::content_length:
        out += "Content-Length: ";
        append_number(out, length);
        out += "\r\n";
        break;
    case framing::chunked:
        out += "Transfer-Encoding: chunked\r\n";
        break;
    case framing::none:
        break;
    }
    switch (c) {
    case connection_field::close:
        out += "Connection: close\r\n";
        break;
    case connection_field::keep_alive:
        out += "Connection: keep-alive\r\n";
        break;
    case connection_field::none:
        break;
    }
    out += "\r\n";
}

void append_chunk(std::string& out, std::string_view data) {
    append_number(out, data.size(), 16);
    out += "\r\n";
    out += data;
    out += "\r\n";
}

std::string error_response(int status, std::string_view detail, int retry_after_seconds) {
    std::string body(reason_phrase(status));
    if (!detail.empty()) body.append(": ").append(detail);
    body += '\n';
    std::string out;
    out.reserve(160 + body.size());
    header_list fields{{"Content-Type", "text/plain; charset=utf-8"}};
    if (retry_after_seconds > 0) fields.emplace_back("Retry-After", std::to_string(retry_after_seconds));
    append_head(out, status, fields, {}, framing::content_length, body.size(), connection_field::close);
    out += body;
    return out;
}

} // namespace mcp::http::core::detail
