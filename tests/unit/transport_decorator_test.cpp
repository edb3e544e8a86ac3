// transport_decorator passes every entry point through to the transport it wraps, so a wrapper
// overrides only what it is about; a session over a wrapper works as over the transport itself.
#include <mcp/session/session.hpp>
#include <mcp/transport/transport_decorator.hpp>

#include "support/scripted_transport.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

namespace {

// Notes which entry point was called, and with what.
class entry_log : public mcp::transport, public mcp::inline_reader {
public:
    void start(mcp::transport_handler h) override {
        calls.push_back("start");
        handler = std::move(h);
    }
    void send(mcp::jsonrpc::outgoing_message m) override {
        calls.push_back("send " + m.text + (m.id ? " id " + mcp::jsonrpc::id_to_string(*m.id) : "") +
                        (m.related ? " related " + mcp::jsonrpc::id_to_string(*m.related) : ""));
    }
    void close() override { calls.push_back("close"); }
    bool close_request_stream(const mcp::jsonrpc::request_id&) override {
        calls.push_back("close_request_stream");
        return true;
    }
    void set_max_message_size(std::size_t n) override { calls.push_back("max " + std::to_string(n)); }
    void read_inline() override { calls.push_back("read_inline"); }
    bool hand_off_reading() override {
        calls.push_back("hand_off");
        return true;
    }
    std::vector<std::string> calls;
    mcp::transport_handler handler;
};

TEST(transport_decorator, passes_every_entry_point_through) {
    auto inner = std::make_shared<entry_log>();
    mcp::transport_decorator wrapper(inner);
    EXPECT_EQ(wrapper.inner(), inner);
    bool delivered = false;
    wrapper.start({.on_message = [&](mcp::jsonrpc::incoming_message&&) { delivered = true; }});
    inner->handler.on_message(mcp::jsonrpc::incoming_message::parse("{}"));
    EXPECT_TRUE(delivered);
    const mcp::jsonrpc::request_id id{std::int64_t{7}};
    mcp::jsonrpc::outgoing_message reply;
    reply.text = "b";
    reply.kind = mcp::jsonrpc::kind::response;
    reply.id = id;
    mcp::jsonrpc::outgoing_message related;
    related.text = "c";
    related.kind = mcp::jsonrpc::kind::notification;
    related.related = id;
    wrapper.send("a");
    wrapper.send(reply);
    wrapper.send(related);
    EXPECT_TRUE(wrapper.close_request_stream(id));
    wrapper.set_max_message_size(42);
    wrapper.read_inline();
    EXPECT_TRUE(wrapper.hand_off_reading());
    wrapper.close();
    EXPECT_EQ(inner->calls, (std::vector<std::string>{"start", "send a", "send b id 7", "send c related 7",
                                                      "close_request_stream", "max 42", "read_inline",
                                                      "hand_off", "close"}));
}

// Overrides one entry point, as a user's wrapper would.
class counting_replies : public mcp::transport_decorator {
public:
    using transport_decorator::transport_decorator;
    void send(mcp::jsonrpc::outgoing_message message) override {
        if (message.kind == mcp::jsonrpc::kind::response) ++replies;
        transport_decorator::send(std::move(message));
    }
    std::atomic<int> replies{0};
};

TEST(transport_decorator, a_session_over_a_wrapper_answers_on_the_wire) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto counting = std::make_shared<counting_replies>(wire);
    auto s = mcp::session::create(counting, {});
    s->start();
    wire->inject(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    EXPECT_EQ(*wire->next(), R"({"jsonrpc":"2.0","id":1,"result":{}})");
    EXPECT_EQ(counting->replies, 1);
    s->close();
}

} // namespace
