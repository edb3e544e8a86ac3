// libFuzzer harness: arbitrary bytes as one incoming message to a session with a few handlers.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DMCPXX_BUILD_FUZZ=ON ...; run: build/fuzz/session_fuzz
// Every input must be answered or ignored without crashing, hanging or leaking.
#include <mcp/session/session.hpp>

#include <cstddef>
#include <cstdint>

namespace {

class sink_transport : public mcp::transport {
public:
    void start(mcp::transport_handler h) override { handler = std::move(h); }
    void send(mcp::jsonrpc::outgoing_message message) override { bytes += message.text.size(); }
    void close() override {}
    mcp::transport_handler handler;
    std::size_t bytes = 0;
};

struct harness {
    std::shared_ptr<sink_transport> wire = std::make_shared<sink_transport>();
    std::shared_ptr<mcp::session> s;
    harness() {
        mcp::session_options o;
        o.handler_executor = nullptr;
        // Error responses without an id are reported; at fuzzing rates stderr would be the cost.
        o.diagnostic_sink = [](std::string_view) {};
        s = mcp::session::create(wire, o);
        s->set_request_handler("echo",
                               [](mcp::request_context& ctx) -> mcp::json::value { return ctx.params(); });
        s->set_request_handler(
            "fail", [](mcp::request_context&) -> mcp::json::value { throw mcp::error(-32602, "x"); });
        s->set_protocol_revision(mcp::revision::v2025_03_26); // batches too
        s->start();
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static harness h;
    h.wire->handler.on_message(
        mcp::jsonrpc::incoming_message::parse(std::string_view(reinterpret_cast<const char*>(data), size)));
    return 0;
}
