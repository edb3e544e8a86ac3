// The real echo_server binary fed real broken bytes over its stdin: each bad input gets the
// right error (or a clean exit) and the server keeps serving.
#include "support/raw_process.hpp"

#include <mcp/json/json.hpp>

#include <gtest/gtest.h>

#include <iostream>
#include <set>

using namespace std::chrono_literals;
using mcp::test::stdio_handshake;

namespace {

const std::string server = std::string(MCPXX_BINARY_DIR) + "/echo_server";

std::string echo_call(int id, const std::string& text) {
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
           R"(,"method":"tools/call","params":{"name":"echo","arguments":{"text":)" +
           mcp::to_json(mcp::json::value(text)) + "}}}\n";
}

mcp::json::object parse(const std::optional<std::string>& line) {
    EXPECT_TRUE(line) << "no reply";
    if (!line) return {};
    return mcp::json::parse(*line).as_object();
}

struct echo_process : ::testing::Test {
    mcp::test::raw_process p{{server}};
    void SetUp() override {
        ASSERT_TRUE(p.write(stdio_handshake));
        auto r = parse(p.read_line());
        ASSERT_EQ(r.at("id"), 0);
    }
    void expect_alive(int id) {
        ASSERT_TRUE(p.write(echo_call(id, "still here")));
        auto r = parse(p.read_line());
        EXPECT_EQ(r.at("id"), id);
        EXPECT_EQ(r.at("result").at("content").at(0).at("text"), "still here");
    }
};

TEST_F(echo_process, malformed_json_is_a_parse_error) {
    p.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\n");
    auto r = parse(p.read_line());
    EXPECT_EQ(r.at("error").at("code"), -32700);
    EXPECT_FALSE(r.contains("id"));
    expect_alive(2);
}

// Blank lines ("\n\n", a lone "\r\n", spaces and tabs) between messages are no messages: they
// get no reply at all (a client would take a -32700 for a reply to nothing), and the next
// message is answered as the very next line.
TEST_F(echo_process, blank_lines_between_messages_get_no_reply) {
    ASSERT_TRUE(p.write("\n\n\r\n \t\r\n\t\n"));
    ASSERT_TRUE(p.write(echo_call(1, "after blanks")));
    ASSERT_TRUE(p.write("\r\n\n"));
    auto r = parse(p.read_line());
    EXPECT_EQ(r.at("id"), 1);
    EXPECT_FALSE(r.contains("error"));
    expect_alive(2);
    // Blanks after the last message are not a message cut by the end of input.
    ASSERT_TRUE(p.write("\n \r"));
    p.close_stdin();
    auto code = p.wait(5000ms);
    ASSERT_TRUE(code);
    EXPECT_EQ(*code, 0);
    EXPECT_FALSE(p.read_line(200ms)) << "a reply to blank lines";
    EXPECT_EQ(p.stderr_text().find("middle of a message"), std::string::npos) << p.stderr_text();
}

TEST_F(echo_process, a_value_that_is_not_a_request_is_invalid) {
    p.write("[1,2,3]\n\"hello\"\n{\"jsonrpc\":\"2.0\"}\n");
    for (int i = 0; i < 3; ++i) EXPECT_EQ(parse(p.read_line()).at("error").at("code"), -32600);
    expect_alive(2);
}

TEST_F(echo_process, invalid_utf8_is_a_parse_error) {
    p.write(std::string("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/"
                        "call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"\xc3\x28\"}}}\n"));
    EXPECT_EQ(parse(p.read_line()).at("error").at("code"), -32700);
    expect_alive(2);
}

TEST_F(echo_process, null_id_is_rejected) {
    p.write(R"({"jsonrpc":"2.0","id":null,"method":"ping"})"
            "\n");
    auto r = parse(p.read_line());
    EXPECT_EQ(r.at("error").at("code"), -32600);
    expect_alive(2);
}

TEST_F(echo_process, a_10_MiB_line_is_refused_and_the_server_goes_on) {
    std::string big = echo_call(1, std::string(10u << 20, 'x'));
    ASSERT_TRUE(p.write(big));
    auto r = parse(p.read_line(10000ms));
    EXPECT_EQ(r.at("error").at("code"), -32600);
    EXPECT_NE(std::string(r.at("error").at("message").as_string()).find("exceeds"), std::string::npos);
    expect_alive(2);
}

TEST_F(echo_process, unknown_tool_and_bad_arguments) {
    p.write(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}})"
            "\n");
    EXPECT_EQ(parse(p.read_line()).at("error").at("code"), -32602);
    p.write(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":5}}})"
        "\n");
    EXPECT_EQ(parse(p.read_line()).at("result").at("isError"), true);
    expect_alive(3);
}

TEST_F(echo_process, ten_thousand_pipelined_requests_all_answered) {
    // Written in one go, without reading: every request is answered exactly once, either with
    // its echo or, beyond the in-flight limit, with an error naming the limit.
    std::string burst;
    for (int i = 1; i <= 10000; ++i) burst += echo_call(i, "m" + std::to_string(i));
    ASSERT_TRUE(p.write(burst));
    std::vector<bool> seen(10001, false);
    int echoed = 0, limited = 0;
    for (int i = 0; i < 10000; ++i) {
        auto line = p.read_line(10000ms);
        ASSERT_TRUE(line) << "after " << i << " replies";
        auto r = mcp::json::parse(*line).as_object();
        const auto id = r.at("id").as_int64();
        ASSERT_FALSE(seen[static_cast<std::size_t>(id)]);
        seen[static_cast<std::size_t>(id)] = true;
        if (r.contains("result")) {
            EXPECT_EQ(std::string(r.at("result").at("content").at(0).at("text").as_string()),
                      "m" + std::to_string(id));
            ++echoed;
        } else {
            EXPECT_NE(std::string(r.at("error").at("message").as_string()).find("limit"), std::string::npos);
            ++limited;
        }
    }
    std::cout << "echoed " << echoed << ", refused over the in-flight limit " << limited << "\n";
    EXPECT_GT(echoed, 1000);
    expect_alive(20000);
}

TEST_F(echo_process, eof_in_the_middle_of_a_message_exits_cleanly) {
    p.write(R"({"jsonrpc":"2.0","id":1,"method":"tools/ca)");
    p.close_stdin();
    auto code = p.wait(5000ms);
    ASSERT_TRUE(code);
    EXPECT_EQ(*code, 0);
}

TEST(echo_process_lifecycle, exits_0_on_eof_and_writes_only_protocol_to_stdout) {
    mcp::test::raw_process p{{server}};
    p.write(stdio_handshake);
    auto line = p.read_line();
    ASSERT_TRUE(line);
    EXPECT_EQ(mcp::json::parse(*line).at("result").at("serverInfo").at("name"), "echo");
    p.write(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"
            "\n");
    ASSERT_TRUE(p.read_line());
    p.close_stdin();
    EXPECT_EQ(p.wait(), 0);
    EXPECT_FALSE(p.read_line(100ms)); // nothing but replies was written
}

TEST(echo_process_lifecycle, requests_piped_in_before_eof_are_all_answered) {
    // `printf '...' | server`: stdin ends right after the requests; the answers still come.
    mcp::test::raw_process p{{server}};
    std::string input = stdio_handshake;
    for (int id = 1; id <= 200; ++id) input += echo_call(id, "n" + std::to_string(id));
    input += R"({"jsonrpc":"2.0","id":201,"method":"tools/call","params":{"name":"nope","arguments":{}}})"
             "\n";
    ASSERT_TRUE(p.write(input));
    p.close_stdin();
    std::set<std::int64_t> answered;
    while (auto line = p.read_line(5000ms)) {
        auto r = mcp::json::parse(*line).as_object();
        answered.insert(r.at("id").as_int64());
        if (r.at("id") == 201) {
            EXPECT_TRUE(r.contains("error") || r.at("result").at("isError") == true);
        }
    }
    EXPECT_EQ(answered.size(), 202u); // initialize, 200 calls, the unknown tool
    EXPECT_EQ(p.wait(5000ms), 0);
}

TEST(echo_process_lifecycle, a_call_still_running_at_eof_finishes_and_is_answered) {
    mcp::test::raw_process p{{std::string(MCPXX_BINARY_DIR) + "/everything_server"}};
    ASSERT_TRUE(p.write(
        stdio_handshake +
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"seconds":0.3}}})"
        "\n"));
    p.close_stdin();
    std::set<std::int64_t> answered;
    while (auto line = p.read_line(5000ms)) {
        auto r = mcp::json::parse(*line).as_object();
        if (r.contains("id")) answered.insert(r.at("id").as_int64());
        if (r.contains("id") && r.at("id") == 1) {
            EXPECT_TRUE(r.contains("result")) << *line;
        }
    }
    EXPECT_EQ(answered, (std::set<std::int64_t>{0, 1}));
    EXPECT_EQ(p.wait(5000ms), 0);
}

TEST(echo_process_lifecycle, requests_before_initialize_are_refused) {
    mcp::test::raw_process p{{server}};
    p.write(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"
            "\n");
    EXPECT_EQ(mcp::json::parse(*p.read_line()).at("error").at("code"), -32600);
}

} // namespace
