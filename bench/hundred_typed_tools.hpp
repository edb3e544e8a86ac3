// hundred_typed_tools.hpp - 100 distinct described argument/result types and a function that
// registers one typed tool per type into a server. bench/schema times it twice: the first pass
// builds every schema and validator (once per type, then cached), later passes reuse them.
#pragma once

#include <mcp/server/server.hpp>

#include <boost/preprocessor/repetition/repeat.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bench_typed {

enum class priority { low, normal, high };
MCP_DESCRIBE_ENUM(priority, low, normal, high)

#define BENCH_TYPED_TOOL_TYPES(z, n, unused)                                                                 \
    struct args_##n {                                                                                        \
        std::string query;                                                                                   \
        int limit = 10;                                                                                      \
        std::optional<priority> level;                                                                       \
        std::vector<std::string> tags;                                                                       \
    };                                                                                                       \
    MCP_DESCRIBE(args_##n, (query, "What to look for", mcp::field::min_length(1)),                           \
                 (limit, "Most results", mcp::field::range(1, 100)), (level, "Priority filter"),             \
                 (tags, "Labels that must all match"))                                                       \
    struct result_##n {                                                                                      \
        std::vector<std::string> items;                                                                      \
        int total;                                                                                           \
    };                                                                                                       \
    MCP_DESCRIBE(result_##n, (items, "Matching items"), (total, "Matches before the limit"))

BOOST_PP_REPEAT(100, BENCH_TYPED_TOOL_TYPES, ~)
#undef BENCH_TYPED_TOOL_TYPES

inline void register_hundred_typed_tools(mcp::server& s) {
#define BENCH_TYPED_TOOL_ADD(z, n, unused)                                                                   \
    s.add_tool(                                                                                              \
        "tool_" #n, "Typed benchmark tool " #n, [](const args_##n& a, mcp::context&) -> result_##n {         \
            return {{a.query}, 1};                                                                           \
        });
    BOOST_PP_REPEAT(100, BENCH_TYPED_TOOL_ADD, ~)
#undef BENCH_TYPED_TOOL_ADD
}

} // namespace bench_typed
