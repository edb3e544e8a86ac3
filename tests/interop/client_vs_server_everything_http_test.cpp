// Our client over the HTTP client transport against the official reference server,
// @modelcontextprotocol/server-everything (npm, pinned in tests/interop/package.json), started
// as a child process in its `streamableHttp` mode and in its deprecated `sse` mode (HTTP+SSE,
// reached by the transport's automatic fallback). Initialize, list and call tools, progress,
// and the server's sampling and elicitation requests answered by the client's handlers.
// Skipped when node or the package is missing.
#include <mcp/client/client.hpp>
#include <mcp/http/client_transport.hpp>

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

const fs::path interop = fs::path(MCPXX_SOURCE_DIR) / "tests" / "interop";
const fs::path entry =
    interop / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js";

bool have_node() {
    return std::system("node --version >/dev/null 2>&1") == 0;
}

unsigned short free_port() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

bool accepts(unsigned short port) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

// `node index.js <mode>` with PORT set, in a process group of its own; ready once the port
// accepts connections.
class node_server {
public:
    explicit node_server(const std::string& mode) {
        for (int attempt = 0; attempt < 3 && !ready_; ++attempt) {
            port_ = free_port();
            pid_ = ::fork();
            if (pid_ == 0) {
                ::setpgid(0, 0);
                int devnull = ::open("/dev/null", O_RDWR);
                ::dup2(devnull, 0);
                ::dup2(devnull, 1);
                ::dup2(devnull, 2);
                ::setenv("PORT", std::to_string(port_).c_str(), 1);
                ::execlp("node", "node", entry.c_str(), mode.c_str(), static_cast<char*>(nullptr));
                ::_exit(127);
            }
            // Node takes a second or two to start (more on a loaded machine).
            const auto deadline = std::chrono::steady_clock::now() + 60s;
            while (std::chrono::steady_clock::now() < deadline) {
                if (accepts(port_)) {
                    ready_ = true;
                    break;
                }
                int st = 0;
                if (::waitpid(pid_, &st, WNOHANG) == pid_) { // exited (port taken?): try another
                    pid_ = -1;
                    break;
                }
                std::this_thread::sleep_for(50ms);
            }
            if (!ready_) stop();
        }
    }
    ~node_server() { stop(); }
    bool ready() const { return ready_; }
    std::string url(const std::string& path) const {
        return "http://127.0.0.1:" + std::to_string(port_) + path;
    }

private:
    void stop() {
        if (pid_ <= 0) return;
        ::kill(-pid_, SIGTERM);
        for (int i = 0; i < 100; ++i) {
            if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                return;
            }
            std::this_thread::sleep_for(20ms);
        }
        ::kill(-pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }
    pid_t pid_ = -1;
    unsigned short port_ = 0;
    bool ready_ = false;
};

std::string all_text(const mcp::call_tool_result& r) {
    std::string out;
    for (const auto& b : r.content)
        if (const auto* t = mcp::text_of(b)) out += *t;
    return out;
}

struct everything_http : ::testing::Test {
    mcp::client client{{.info = {.name = "mcpxx-interop-http", .version = "1.0"}}};
    std::atomic<int> samplings{0}, elicitations{0};
    std::shared_ptr<mcp::http::client_transport> transport;

    void connect(const std::string& url) {
        client.set_sampling_handler([this](const mcp::create_message_request& req, mcp::request_context&) {
            ++samplings;
            EXPECT_FALSE(req.messages.empty());
            return mcp::create_message_result{.role = mcp::role::assistant,
                                              .content = {mcp::text_content{.text = "mcpxx says 42"}},
                                              .model = "mcpxx-stub"};
        });
        client.set_elicitation_handler([this](const mcp::elicit_request& req, mcp::request_context&) {
            ++elicitations;
            mcp::json::object content;
            if (const auto* props = mcp::find_object(req.requested_schema, "properties"))
                for (const auto& kv : *props) {
                    const auto& s = kv.value().as_object();
                    auto type = mcp::find_string(s, "type").value_or("string");
                    if (const auto* d = s.if_contains("default"))
                        content[kv.key()] = *d;
                    else if (const auto* e = mcp::find_array(s, "enum"); e && !e->empty())
                        content[kv.key()] = e->front();
                    else if (type == "boolean")
                        content[kv.key()] = true;
                    else if (type == "integer" || type == "number")
                        content[kv.key()] = 1;
                    else if (type == "string")
                        content[kv.key()] = "mcpxx";
                }
            return mcp::elicit_result{.action = mcp::elicit_action::accept, .content = content};
        });
        client.set_roots({{.uri = "file:///tmp/mcpxx-interop", .name = "interop"}});
        transport = mcp::http::make_client_transport({.url = url, .log = [](std::string_view) {}});
        client.connect(transport);
    }

    void exercise() {
        // server-everything speaks only the initialize era: the server/discover probe is refused
        // over HTTP (400 without a 2026-07-28 error), and the client falls back to initialize.
        EXPECT_FALSE(client.stateless());
        EXPECT_EQ(client.protocol_version(), mcp::revision::v2025_11_25);
        EXPECT_TRUE(client.server().capabilities.tools);
        client.ping();
        auto tools = client.list_all_tools();
        EXPECT_GE(tools.size(), 10u);
        EXPECT_EQ(all_text(client.call_tool("echo", {{"message", "over http"}})), "Echo: over http");

        std::atomic<int> updates{0};
        mcp::call_options o;
        o.on_progress = [&](const mcp::progress_update&) { ++updates; };
        auto lr = client.call_tool("trigger-long-running-operation", {{"duration", 1}, {"steps", 3}}, o);
        EXPECT_FALSE(lr.is_error.value_or(false)) << all_text(lr);
        EXPECT_GE(updates.load(), 2);

        auto s = client.call_tool("trigger-sampling-request", {{"prompt", "hello"}, {"maxTokens", 10}});
        EXPECT_NE(all_text(s).find("mcpxx says 42"), std::string::npos) << all_text(s);
        EXPECT_EQ(samplings.load(), 1);
        auto e = client.call_tool("trigger-elicitation-request");
        EXPECT_FALSE(e.is_error.value_or(false)) << all_text(e);
        EXPECT_EQ(elicitations.load(), 1);

        auto resources = client.list_all_resources();
        ASSERT_FALSE(resources.empty());
        EXPECT_FALSE(client.read_resource(resources.front().uri).contents.empty());
    }
};

TEST_F(everything_http, streamable_http) {
    if (!have_node() || !fs::exists(entry))
        GTEST_SKIP() << "node or server-everything not installed (scripts/install-deps)";
    node_server server("streamableHttp");
    ASSERT_TRUE(server.ready()) << "server-everything did not start";
    connect(server.url("/mcp"));
    EXPECT_EQ(transport->current_wire(), mcp::http::client_transport::wire::streamable);
    EXPECT_FALSE(transport->session_id().empty());
    exercise();
    client.close();
}

TEST_F(everything_http, legacy_http_sse_by_fallback) {
    if (!have_node() || !fs::exists(entry))
        GTEST_SKIP() << "node or server-everything not installed (scripts/install-deps)";
    node_server server("sse");
    ASSERT_TRUE(server.ready()) << "server-everything did not start";
    connect(server.url("/sse"));
    EXPECT_EQ(transport->current_wire(), mcp::http::client_transport::wire::legacy_sse);
    exercise();
    client.close();
}

} // namespace
