// bench/engine_overhead: CPU cost of one tools/call through the engine and the server, without
// any I/O: messages are handed to the session as a transport would, replies are counted.
// Separates our own per-call cost from pipe and syscall costs measured by stdio_throughput.
//
//   build/bench/engine_overhead [--n 500000] [--window 64]
#include <mcp/server/server.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string>

namespace {

class counting_transport : public mcp::transport {
public:
    void start(mcp::transport_handler h) override { handler = std::move(h); }
    void send(mcp::jsonrpc::outgoing_message message) override {
        bytes += message.text.size();
        std::lock_guard lock(mu);
        ++replies;
        cv.notify_all();
    }
    void close() override {}
    void wait_for(std::size_t n) {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return replies >= n; });
    }
    mcp::transport_handler handler;
    std::atomic<std::size_t> bytes{0};
    std::mutex mu;
    std::condition_variable cv;
    std::size_t replies = 0;
};

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

} // namespace

int main(int argc, char** argv) {
    std::size_t n = 500000, window = 64;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--n"))
            n = std::stoul(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--window"))
            window = std::stoul(argv[i + 1]);
    }
    mcp::server server({.info = {.name = "bench", .version = "1"}});
    server.add_tool({.name = "echo"}, [](const mcp::json::object& args, mcp::context&) {
        return mcp::call_tool_result{.content = {mcp::text(std::string(args.at("text").as_string()))}};
    });
    auto wire = std::make_shared<counting_transport>();
    auto peer = server.connect(wire);
    using mcp::jsonrpc::incoming_message;
    wire->handler.on_message(incoming_message::parse(
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}})"));
    wire->wait_for(1);
    wire->handler.on_message(
        incoming_message::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));

    std::vector<std::string> msgs;
    msgs.reserve(n);
    for (std::size_t i = 1; i <= n; ++i)
        msgs.push_back(
            R"({"jsonrpc":"2.0","id":)" + std::to_string(i) +
            R"(,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello world"}}})");
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) {
        if (i >= window) wire->wait_for(i + 1 - window + 1);        // keep at most `window` in flight
        wire->handler.on_message(incoming_message::parse(msgs[i])); // what a transport does
    }
    wire->wait_for(n + 1);
    const double cpu = cpu_seconds() - c0;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("engine + server, tools/call echo, %zu calls, window %zu\n", n, window);
    std::printf("  calls/s          %.0f\n", static_cast<double>(n) / wall);
    std::printf("  CPU us per call  %.2f (all threads)\n", cpu * 1e6 / static_cast<double>(n));
    peer->close();
    return 0;
}
