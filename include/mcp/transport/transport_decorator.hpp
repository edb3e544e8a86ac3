// mcp/transport/transport_decorator.hpp - a transport that wraps another one.
//
// Every call goes through to the inner transport unless the decorator overrides it, so a
// wrapper that watches, records or changes what passes (a logger, a recorder in a test, the
// host's watch for a server that is gone) overrides only what it is about, and a transport
// entry point added later reaches every wrapper at once:
//
//   class counting_transport : public mcp::transport_decorator {
//   public:
//       using transport_decorator::transport_decorator;
//       void send(mcp::jsonrpc::outgoing_message message) override {
//           ++sent;
//           transport_decorator::send(std::move(message));
//       }
//       std::atomic<int> sent{0};
//   };
#pragma once

#include <mcp/transport/transport.hpp>

#include <cstddef>
#include <string>
#include <utility>

namespace mcp {

class transport_decorator : public transport, public inline_reader {
public:
    explicit transport_decorator(transport_ptr inner) : inner_(std::move(inner)) {}

    void start(transport_handler handler) override { inner_->start(std::move(handler)); }
    void send(jsonrpc::outgoing_message message) override { inner_->send(std::move(message)); }
    void close() override { inner_->close(); }
    bool close_request_stream(const jsonrpc::request_id& id) override {
        return inner_->close_request_stream(id);
    }
    void set_max_message_size(std::size_t bytes) override { inner_->set_max_message_size(bytes); }
    void read_inline() override {
        if (auto* reader = dynamic_cast<inline_reader*>(inner_.get())) reader->read_inline();
    }
    bool hand_off_reading() override {
        auto* reader = dynamic_cast<inline_reader*>(inner_.get());
        return reader && reader->hand_off_reading();
    }

    /// The wrapped transport.
    const transport_ptr& inner() const noexcept { return inner_; }

private:
    const transport_ptr inner_;
};

} // namespace mcp
