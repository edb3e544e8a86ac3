// mcp/server/typed.hpp - typed tools and prompts: handlers that take and return C++ types,
// with schemas generated from those types (see mcp/json/describe.hpp).
//
//     server.add_tool({.name = "forecast", .description = "Get the forecast for a city"},
//         [](const forecast_args& a, mcp::context& ctx) -> forecast { ... });
//
// A typed tool handler is callable as one of
//     R f(const Args&, context&)   R f(const Args&)   R f(context&)   R f()
// where Args is a described struct (its schema becomes inputSchema; the server validates the
// arguments against it before the handler runs) or json::object (raw arguments), and R is
//     a described struct  -> structuredContent + outputSchema + a text copy of the JSON
//     std::string         -> one text block
//     content_block, std::vector<content_block>
//     call_tool_result    -> as is
//     void                -> an empty result
//
// A typed prompt handler is callable as R f(const Args&, context&) or R f(const Args&), where
// Args is a described struct whose members are strings, numbers, booleans or described enums
// (prompt arguments travel as strings; numbers and booleans are parsed) and R is
// get_prompt_result, std::vector<prompt_message> or std::string (one user message).
// Enumeration members get a completion handler for free.
#pragma once

#include <mcp/protocol/types.hpp>
#include <mcp/schema/from_type.hpp>
#include <mcp/server/context.hpp>

#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace mcp {

/// A raw tool handler: the JSON arguments (validated against the tool's inputSchema) in,
/// result out.
using tool_handler = std::function<call_tool_result(const json::object& arguments, context& ctx)>;
/// A raw prompt handler: builds a prompt from its arguments (required ones checked).
using prompt_handler =
    std::function<get_prompt_result(const std::map<std::string, std::string>& arguments, context& ctx)>;
/// Completes one argument: the argument's name, the partial value, the other arguments already
/// given (completion context). Returns candidate values (at most 100 are sent).
using completion_handler =
    std::function<complete_result(const std::string& argument, const std::string& value,
                                  const std::map<std::string, std::string>& context_arguments)>;

// mcp::detail is not public API, and doxygen misreads the recursive callable_signature
// specialisations below as a class deriving from itself: the API reference leaves it out.
/// \cond INTERNAL
namespace detail {

// --- the signature of a callable (lambdas, function objects, function pointers) -------------
template <class F> struct callable_signature : callable_signature<decltype(&F::operator())> {};
template <class R, class... A> struct callable_signature<R (*)(A...)> {
    using result = R;
    using params = std::tuple<std::decay_t<A>...>;
};
template <class R, class... A>
struct callable_signature<R (*)(A...) noexcept> : callable_signature<R (*)(A...)> {};
template <class C, class R, class... A>
struct callable_signature<R (C::*)(A...)> : callable_signature<R (*)(A...)> {};
template <class C, class R, class... A>
struct callable_signature<R (C::*)(A...) const> : callable_signature<R (*)(A...)> {};
template <class C, class R, class... A>
struct callable_signature<R (C::*)(A...) noexcept> : callable_signature<R (*)(A...)> {};
template <class C, class R, class... A>
struct callable_signature<R (C::*)(A...) const noexcept> : callable_signature<R (*)(A...)> {};

template <class F>
concept has_signature = requires {
    typename callable_signature<std::decay_t<F>>::params;
};

/// The argument type of a typed handler: its first parameter unless that is the context.
template <class Params> struct handler_arguments { using type = void; };
template <class A, class... Rest> struct handler_arguments<std::tuple<A, Rest...>> {
    using type = std::conditional_t<std::is_same_v<A, context>, void, A>;
};

template <class F>
using arguments_of = typename handler_arguments<typename callable_signature<std::decay_t<F>>::params>::type;
template <class F> using result_of = typename callable_signature<std::decay_t<F>>::result;

/// Call `f` with whichever of (args, ctx) it takes.
template <class Args, class F> decltype(auto) invoke_handler(F& f, const Args* args, context& ctx) {
    if constexpr (std::is_void_v<Args>) {
        if constexpr (std::is_invocable_v<F&, context&>)
            return f(ctx);
        else
            return f();
    } else {
        if constexpr (std::is_invocable_v<F&, const Args&, context&>)
            return f(*args, ctx);
        else
            return f(*args);
    }
}

template <class R> constexpr bool is_structured_result = described_struct<R>;

template <class R>
constexpr bool is_tool_result =
    std::is_void_v<R> || std::is_same_v<R, call_tool_result> || std::is_convertible_v<R, std::string> ||
    std::is_same_v<R, content_block> || std::is_same_v<R, std::vector<content_block>> ||
    is_structured_result<R> || std::is_constructible_v<content_block, R>;

std::string serialize_for_text(const json::value& v);

template <class R> call_tool_result to_tool_result(R&& r) {
    using T = std::decay_t<R>;
    if constexpr (std::is_same_v<T, call_tool_result>)
        return std::forward<R>(r);
    else if constexpr (std::is_same_v<T, std::vector<content_block>>)
        return call_tool_result{.content = std::forward<R>(r)};
    else if constexpr (is_structured_result<T>) {
        json::value v = type_codec<T>::to_value(r);
        call_tool_result out;
        // The text copy keeps clients of revisions without structuredContent (and models that
        // read only content) informed, as the spec recommends.
        out.content.push_back(text_content{.text = serialize_for_text(v)});
        out.structured_content = std::move(v);
        return out;
    } else if constexpr (std::is_convertible_v<T, std::string>)
        return call_tool_result{.content = {text_content{.text = std::string(std::forward<R>(r))}}};
    else
        return call_tool_result{.content = {content_block(std::forward<R>(r))}};
}

/// Whether F can be a typed tool handler (and is not already a raw tool_handler).
template <class F>
concept typed_tool_handler =
    has_signature<F> && !std::is_convertible_v<F, tool_handler> &&
    (std::is_void_v<arguments_of<F>> || std::is_same_v<arguments_of<F>, json::object> ||
     described_struct<arguments_of<F>>)&&is_tool_result<result_of<F>>;

/// Fill `definition`'s schemas from F's types and wrap F as a raw tool_handler.
template <class F> tool_handler typed_tool(tool& definition, F handler) {
    using Args = arguments_of<F>;
    using R = result_of<F>;
    if constexpr (described_struct<Args>)
        definition.input_schema = schema::schema_of<Args>();
    else if constexpr (std::is_void_v<Args>)
        definition.input_schema = {{"type", "object"}, {"properties", json::object{}}};
    if constexpr (is_structured_result<std::decay_t<R>>)
        definition.output_schema = schema::schema_of<std::decay_t<R>>();
    return [h = std::move(handler)](const json::object& raw, context& ctx) mutable -> call_tool_result {
        if constexpr (std::is_void_v<Args>) {
            if constexpr (std::is_void_v<R>) {
                invoke_handler<void>(h, nullptr, ctx);
                return {};
            } else
                return to_tool_result(invoke_handler<void>(h, nullptr, ctx));
        } else if constexpr (std::is_same_v<Args, json::object>) {
            if constexpr (std::is_void_v<R>) {
                invoke_handler<Args>(h, &raw, ctx);
                return {};
            } else
                return to_tool_result(invoke_handler<Args>(h, &raw, ctx));
        } else {
            // The server has validated `raw` against the schema; conversion checks types again,
            // so even with validation off a mismatch is an error result, never undefined data.
            const Args args = type_codec<Args>::from_value(raw);
            if constexpr (std::is_void_v<R>) {
                invoke_handler<Args>(h, &args, ctx);
                return {};
            } else
                return to_tool_result(invoke_handler<Args>(h, &args, ctx));
        }
    };
}

// --- prompts ----------------------------------------------------------------------------------

template <class R>
constexpr bool is_prompt_result =
    std::is_same_v<R, get_prompt_result> || std::is_same_v<R, std::vector<prompt_message>> ||
    std::is_convertible_v<R, std::string>;

template <class R> get_prompt_result to_prompt_result(R&& r) {
    using T = std::decay_t<R>;
    if constexpr (std::is_same_v<T, get_prompt_result>)
        return std::forward<R>(r);
    else if constexpr (std::is_same_v<T, std::vector<prompt_message>>)
        return get_prompt_result{.messages = std::forward<R>(r)};
    else
        return get_prompt_result{
            .messages = {prompt_message{.role = role::user,
                                        .content = text_content{.text = std::string(std::forward<R>(r))}}}};
}

template <class F>
concept typed_prompt_handler = has_signature<F> && !std::is_convertible_v<F, prompt_handler> &&
                               described_struct<arguments_of<F>> && is_prompt_result<result_of<F>>;

/// The prompt arguments of an object schema: one per property, in order.
std::vector<prompt_argument> prompt_arguments_from_schema(const json::object& schema);
/// Prompt arguments (strings) as a JSON object typed as `schema` says (numbers and booleans
/// parsed), validated against `v`. Throws mcp::error(invalid_params) naming the prompt.
json::value typed_prompt_arguments(const std::string& prompt_name, const json::object& schema,
                                   const schema::validator& v,
                                   const std::map<std::string, std::string>& arguments);
/// Completion handlers for every enum-valued property of `schema` not in `completers`.
void add_enum_completers(const json::object& schema, std::map<std::string, completion_handler>& completers);

template <class F>
prompt_handler typed_prompt(prompt& definition, std::map<std::string, completion_handler>& completers,
                            F handler) {
    using Args = arguments_of<F>;
    const json::object& s = schema::schema_of<Args>();
    definition.arguments = prompt_arguments_from_schema(s);
    add_enum_completers(s, completers);
    return [h = std::move(handler), name = definition.name](const std::map<std::string, std::string>& raw,
                                                            context& ctx) mutable -> get_prompt_result {
        const json::value typed =
            typed_prompt_arguments(name, schema::schema_of<Args>(), schema::validator_of<Args>(), raw);
        const Args args = type_codec<Args>::from_value(typed);
        return to_prompt_result(invoke_handler<Args>(h, &args, ctx));
    };
}

} // namespace detail
/// \endcond
} // namespace mcp
