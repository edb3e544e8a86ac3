// RFC 6570 URI templates: every vector of uritemplate-test (tests/data/uritemplate-test), matching (the
// inverse of expansion), error messages, and the server's use of compiled templates.
#include <mcp/protocol/uri_template.hpp>
#include <mcp/server/server.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace {

using mcp::uri_template;
using mcp::uri_template_error;
namespace json = mcp::json;
using vars_map = std::map<std::string, std::string>;

const std::string vectors_dir = std::string(MCPXX_TEST_DATA_DIR) + "/uritemplate-test/";

json::object load(const std::string& file) {
    std::ifstream in(vectors_dir + file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + vectors_dir + file);
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str()).as_object();
}

// Calls f(section, template, variables, expected) for every test case of a vector file.
template <class F> std::size_t for_each_vector(const std::string& file, F f) {
    std::size_t count = 0;
    const auto doc = load(file);
    for (const auto& [section, group] : doc) {
        const auto& vars = group.at("variables").as_object();
        for (const auto& tc : group.at("testcases").as_array()) {
            const auto& pair = tc.as_array();
            const std::string templ(pair.at(0).as_string());
            SCOPED_TRACE(file + " / " + std::string(section) + " / " + templ);
            ++count;
            f(std::string_view(section), templ, vars, pair.at(1));
        }
    }
    std::cout << "[ vectors  ] " << file << ": " << count << " run\n";
    return count;
}

// Expansion vectors: the expected value is a string, or an array of acceptable strings (where
// the RFC leaves the order of an associative array's pairs open).
std::size_t run_expansion_vectors(const std::string& file) {
    return for_each_vector(file, [](std::string_view, const std::string& templ, const json::object& vars,
                                    const json::value& expected) {
        std::string got;
        try {
            got = uri_template(templ).expand(vars);
        } catch (const std::exception& e) {
            ADD_FAILURE() << "threw: " << e.what();
            return;
        }
        if (expected.is_string()) {
            EXPECT_EQ(got, expected.as_string());
        } else {
            ASSERT_TRUE(expected.is_array()) << "a positive vector file holds no failure cases";
            const auto& options = expected.as_array();
            EXPECT_TRUE(
                std::any_of(options.begin(), options.end(),
                            [&](const json::value& o) { return o.is_string() && o.get_string() == got; }))
                << "got " << got << ", expected one of " << json::serialize(expected);
        }
    });
}

TEST(uri_template_vectors, spec_examples) {
    EXPECT_GT(run_expansion_vectors("spec-examples.json"), 0u);
}
TEST(uri_template_vectors, spec_examples_by_section) {
    EXPECT_GT(run_expansion_vectors("spec-examples-by-section.json"), 0u);
}
TEST(uri_template_vectors, extended_tests) {
    EXPECT_GT(run_expansion_vectors("extended-tests.json"), 0u);
}

// Every negative vector must be rejected. All are syntax errors rejected by the constructor,
// except "{keys:1}" and "{+keys:1}": valid syntax, but a prefix modifier cannot apply to an
// associative array, which is only known at expansion time (RFC 6570 §2.4.1), so expand() throws.
TEST(uri_template_vectors, negative_tests) {
    std::set<std::string> rejected_at_expansion;
    std::size_t rejected_at_parse = 0;
    const auto n =
        for_each_vector("negative-tests.json", [&](std::string_view, const std::string& templ,
                                                   const json::object& vars, const json::value& expected) {
            EXPECT_EQ(expected, json::value(false));
            auto t = uri_template::try_parse(templ);
            if (!t) {
                ++rejected_at_parse;
                EXPECT_THROW(uri_template{templ}, uri_template_error);
                return;
            }
            try {
                auto got = t->expand(vars);
                ADD_FAILURE() << "accepted, expanded to " << got;
            } catch (const uri_template_error&) {
                rejected_at_expansion.insert(templ);
            }
        });
    EXPECT_GT(n, 0u);
    EXPECT_EQ(rejected_at_expansion, (std::set<std::string>{"{keys:1}", "{+keys:1}"}));
    EXPECT_EQ(rejected_at_parse + rejected_at_expansion.size(), n);
    std::cout << "[ vectors  ] negative: " << rejected_at_parse << " rejected by the parser, "
              << rejected_at_expansion.size() << " by expansion\n";
}

// ------------------------------------------------------------------ round trip of the vectors

// The text a scalar expands to (strings as is, numbers shortest, bools as words).
std::optional<std::string> scalar_text(const json::value& v) {
    char buf[32];
    switch (v.kind()) {
    case json::kind::string:
        return std::string(v.get_string());
    case json::kind::bool_:
        return v.get_bool() ? "true" : "false";
    case json::kind::int64:
        return std::to_string(v.get_int64());
    case json::kind::uint64:
        return std::to_string(v.get_uint64());
    case json::kind::double_: {
        auto r = std::to_chars(buf, buf + sizeof buf, v.get_double());
        return std::string(buf, r.ptr);
    }
    default:
        return std::nullopt;
    }
}

struct expression_info {
    char op = 0;
    std::size_t begin = 0, end = 0; // of "{...}" in the template
    std::vector<std::string> specs; // varspecs as written
};

// A small independent scan of a (valid) template's expressions, to judge vectors.
std::vector<expression_info> expressions_of(const std::string& t) {
    std::vector<expression_info> out;
    for (auto open = t.find('{'); open != std::string::npos; open = t.find('{', open + 1)) {
        expression_info e;
        e.begin = open;
        e.end = t.find('}', open) + 1;
        std::string body = t.substr(open + 1, e.end - open - 2);
        if (!body.empty() && std::string("+#./;?&").find(body[0]) != std::string::npos) {
            e.op = body[0];
            body.erase(0, 1);
        }
        std::stringstream ss(body);
        for (std::string spec; std::getline(ss, spec, ',');) e.specs.push_back(spec);
        out.push_back(std::move(e));
    }
    return out;
}

// Whether match(expand(vars)) must give back exactly the template's variables: decided from the
// template and values alone, so that the selection is principled rather than tuned to results.
std::optional<vars_map> unambiguous_round_trip(const std::string& templ, const json::object& vars) {
    vars_map want;
    const auto exprs = expressions_of(templ);
    for (std::size_t i = 0; i < exprs.size(); ++i) {
        const auto& e = exprs[i];
        // The boundary between two adjacent expressions is invisible unless the second one
        // starts with its own character.
        if (i > 0 && exprs[i - 1].end == e.begin && (e.op == 0 || e.op == '+')) return std::nullopt;
        for (const auto& spec : e.specs) {
            // Level 4 (prefix, explode) is out: a prefix loses text, and lists/objects have no
            // single string form.
            if (spec.find_first_of(":*") != std::string::npos) return std::nullopt;
            auto it = vars.find(spec);
            // An undefined variable leaves no trace: with it, pieces shift to other variables.
            if (it == vars.end()) return std::nullopt;
            auto text = scalar_text(it->value());
            if (!text) return std::nullopt;
            // Reserved expansion (+, #) copies pct-triplets, so decoding is not its inverse.
            if ((e.op == '+' || e.op == '#') && text->find('%') != std::string::npos) return std::nullopt;
            // A separator that expansion leaves unencoded in a value makes the split ambiguous.
            if (e.specs.size() > 1 && (e.op == '+' || e.op == '#') && text->find(',') != std::string::npos)
                return std::nullopt;
            if (e.specs.size() > 1 && e.op == '.' && text->find('.') != std::string::npos)
                return std::nullopt;
            want[spec] = *text;
        }
    }
    return want;
}

TEST(uri_template_match, round_trips_every_unambiguous_vector) {
    std::size_t tried = 0, eligible = 0;
    for (const char* file : {"spec-examples.json", "spec-examples-by-section.json", "extended-tests.json"}) {
        for_each_vector(file, [&](std::string_view, const std::string& templ, const json::object& vars,
                                  const json::value& expected) {
            ++tried;
            if (!expected.is_string()) return; // several acceptable expansions: an object's key order
            auto want = unambiguous_round_trip(templ, vars);
            if (!want) return;
            ++eligible;
            const uri_template t(templ);
            const std::string uri(expected.as_string());
            EXPECT_EQ(t.expand(vars), uri);
            auto got = t.match(uri);
            ASSERT_TRUE(got) << "no match for " << uri;
            EXPECT_EQ(*got, *want) << "matching " << uri;
        });
    }
    std::cout << "[ vectors  ] round trip: " << eligible << " of " << tried << " vectors are unambiguous\n";
    EXPECT_GE(eligible, 80u); // a meaningful share of the vectors (87 of 234 as of writing)
}

// ------------------------------------------------------------------ matching

std::optional<vars_map> match(std::string_view templ, std::string_view uri) {
    return uri_template(templ).match(uri);
}

TEST(uri_template_match, mcp_resource_templates) {
    EXPECT_EQ(match("mem://items/{id}", "mem://items/42"), (vars_map{{"id", "42"}}));
    EXPECT_EQ(match("file:///{+path}", "file:///src/a/b.txt"), (vars_map{{"path", "src/a/b.txt"}}));
    EXPECT_EQ(match("repo://{owner}/{repo}/tree{/path*}", "repo://me/mcp/tree/src/x.cpp"),
              (vars_map{{"owner", "me"}, {"repo", "mcp"}, {"path", "src,x.cpp"}}));
    EXPECT_EQ(match("repo://{owner}/{repo}/tree{/path*}", "repo://me/mcp/tree"),
              (vars_map{{"owner", "me"}, {"repo", "mcp"}}));
    EXPECT_EQ(match("doc://{name}{.ext}", "doc://notes.md"), (vars_map{{"name", "notes"}, {"ext", "md"}}));
    EXPECT_EQ(match("doc://x{;rev,lang}", "doc://x;lang=en;rev=3"), (vars_map{{"rev", "3"}, {"lang", "en"}}));
    EXPECT_EQ(match("doc://x{;rev}", "doc://x;rev"), (vars_map{{"rev", ""}}));
    EXPECT_EQ(match("page://{id}{#section}", "page://7#intro"),
              (vars_map{{"id", "7"}, {"section", "intro"}}));
}

TEST(uri_template_match, query_parameters_in_any_order_and_optional) {
    const uri_template t("search://items{?q,lang,page}");
    EXPECT_EQ(t.match("search://items?q=cat&lang=en&page=2"),
              (vars_map{{"q", "cat"}, {"lang", "en"}, {"page", "2"}}));
    EXPECT_EQ(t.match("search://items?page=2&q=cat"), (vars_map{{"q", "cat"}, {"page", "2"}}));
    EXPECT_EQ(t.match("search://items?lang=en"), (vars_map{{"lang", "en"}}));
    EXPECT_EQ(t.match("search://items"), vars_map{});
    EXPECT_EQ(t.match("search://items?q="), (vars_map{{"q", ""}}));
    EXPECT_EQ(t.match("search://items?q"), (vars_map{{"q", ""}}));
    EXPECT_FALSE(t.match("search://items?other=1"));     // not one of the expression's names
    EXPECT_FALSE(t.match("search://items?q=1&other=1")); // same
    EXPECT_FALSE(t.match("search://items?"));            // an empty pair names nothing
    EXPECT_FALSE(t.match("search://items?q=1&"));
    EXPECT_FALSE(t.match("search://items?q=1&q=2"));  // one variable, two values
    EXPECT_FALSE(t.match("search://items?q=1#frag")); // '#' ends the query

    // {?..} followed by {&..}: one set of pairs, in any order.
    const uri_template split("x{?a}{&b,c}");
    EXPECT_EQ(split.match("x?c=3&a=1&b=2"), (vars_map{{"a", "1"}, {"b", "2"}, {"c", "3"}}));
    EXPECT_EQ(split.match("x&b=2"), (vars_map{{"b", "2"}})); // what expansion gives with a undefined
    // A literal query part stays literal; {&..} pairs after it may come in any order.
    EXPECT_EQ(match("x?fixed=yes{&a,b}", "x?fixed=yes&b=2&a=1"), (vars_map{{"a", "1"}, {"b", "2"}}));
    EXPECT_FALSE(match("x?fixed=yes{&a}", "x?a=1&fixed=yes"));
    // Exploded lists come back joined with ','.
    EXPECT_EQ(match("x{?tag*}", "x?tag=a&tag=b%2Cc"), (vars_map{{"tag", "a,b,c"}}));
    EXPECT_EQ(match("x{?tag}", "x?tag=a,b"), (vars_map{{"tag", "a,b"}}));
}

TEST(uri_template_match, percent_decoding) {
    EXPECT_EQ(match("files/{name}", "files/a%20b%2Fc%3f"), (vars_map{{"name", "a b/c?"}}));
    EXPECT_EQ(match("files/{name}", "files/caf%C3%A9"), (vars_map{{"name", "caf\xC3\xA9"}}));
    EXPECT_EQ(match("files/{name}", "files/a+b"), (vars_map{{"name", "a+b"}})); // '+' is not a space
    EXPECT_EQ(match("files/{name}", "files/50%"), (vars_map{{"name", "50%"}})); // a lone '%' stays
    EXPECT_EQ(match("files/{name}", "files/%zz"), (vars_map{{"name", "%zz"}}));
    EXPECT_EQ(match("q{?s}", "q?s=a%26b%3Dc"), (vars_map{{"s", "a&b=c"}}));
    // Raw characters that expansion would have encoded are accepted.
    EXPECT_EQ(match("files/{name}", "files/a b:c"), (vars_map{{"name", "a b:c"}}));
    // Literals match as written or in their encoded form.
    EXPECT_EQ(match("caf\xC3\xA9/{x}", "caf%C3%A9/1"), (vars_map{{"x", "1"}}));
    EXPECT_EQ(match("caf\xC3\xA9/{x}", "caf\xC3\xA9/1"), (vars_map{{"x", "1"}}));
}

TEST(uri_template_match, non_matches) {
    EXPECT_FALSE(match("mem://items/{id}", "mem://items/1/2")); // {id} never spans '/'
    EXPECT_FALSE(match("mem://items/{id}", "mem://items/1?x")); // ... nor '?'
    EXPECT_FALSE(match("mem://items/{id}", "mem://items/1#x")); // ... nor '#'
    EXPECT_FALSE(match("mem://items/{id}", "mem://other/1"));
    EXPECT_FALSE(match("mem://items/{id}", "mem://items"));
    EXPECT_FALSE(match("mem://items/{id}/x", "mem://items/1/y"));
    EXPECT_FALSE(match("{/a}", "/x/y"));    // two segments, one variable, not exploded
    EXPECT_FALSE(match("x{.a}", "xa"));     // '.' missing
    EXPECT_FALSE(match("{var:3}", "abcd")); // longer than the prefix
    EXPECT_FALSE(match("{x}/{x}", "a/b"));  // one variable, two values
    EXPECT_FALSE(match("{;a}", ";b=1"));
    EXPECT_EQ(match("{x}/{x}", "a/a"), (vars_map{{"x", "a"}}));
    EXPECT_EQ(match("{var:3}", "ab%C3%A9"), (vars_map{{"var", "ab\xC3\xA9"}})); // 3 code points
    EXPECT_EQ(match("{/var:1,var}", "/v/value"), (vars_map{{"var", "value"}})); // prefix agrees
    EXPECT_FALSE(match("{/var:1,var}", "/x/value"));
}

TEST(uri_template_match, literals_only) {
    const uri_template t("mem://fixed/path");
    EXPECT_EQ(t.match("mem://fixed/path"), vars_map{});
    EXPECT_FALSE(t.match("mem://fixed/path/"));
    EXPECT_FALSE(t.match("mem://fixed/pat"));
    EXPECT_FALSE(t.match(""));
    EXPECT_EQ(uri_template("").match(""), vars_map{});
    EXPECT_FALSE(uri_template("").match("x"));
}

TEST(uri_template_match, ambiguity_is_resolved_lazily_from_the_left) {
    EXPECT_EQ(match("{name}{.ext}", "archive.tar.gz"), (vars_map{{"name", "archive"}, {"ext", "tar.gz"}}));
    EXPECT_EQ(match("{+path}{?q}", "a/b?q=1"), (vars_map{{"path", "a/b"}, {"q", "1"}}));
    EXPECT_EQ(match("{+path}{#frag}", "a/b#top"), (vars_map{{"path", "a/b"}, {"frag", "top"}}));
    EXPECT_EQ(match("{+path}", "a/b?q=1#top"), (vars_map{{"path", "a/b?q=1#top"}})); // + spans all
    EXPECT_EQ(match("{+path}/{file}", "a/b/c"), (vars_map{{"path", "a/b"}, {"file", "c"}}));
    EXPECT_EQ(match("{a}-{b}", "x-y-z"), (vars_map{{"a", "x"}, {"b", "y-z"}}));
    // Matching nothing (undefined, or "") is the last resort: variables fill from the left.
    EXPECT_EQ(match("{.a}{.b}", ".x.y.z"), (vars_map{{"a", "x"}, {"b", "y.z"}}));
    EXPECT_EQ(match("{/a}{/b}", "/x"), (vars_map{{"a", "x"}}));
    EXPECT_EQ(match("{a}{b}", "xyz"), (vars_map{{"a", "x"}, {"b", "yz"}}));
    EXPECT_EQ(match("O{a}X", "OX"), (vars_map{{"a", ""}}));
    EXPECT_EQ(match("{x,y}", "1,2,3"), (vars_map{{"x", "1"}, {"y", "2,3"}})); // surplus to the last
    EXPECT_EQ(match("{x,y}", "1"), (vars_map{{"x", "1"}}));
    EXPECT_EQ(match("{/a,b}", "/1"), (vars_map{{"a", "1"}}));
    EXPECT_EQ(match("mem://items/{id}", "mem://items/"), (vars_map{{"id", ""}}));
    EXPECT_EQ(match("x{/a}", "x/"), (vars_map{{"a", ""}}));
}

TEST(uri_template_match, work_is_bounded) {
    // A long value matches in linear time.
    const std::string long_path(1 << 20, 'a');
    auto got = match("file:///{+path}{?v}", "file:///" + long_path + "?v=1");
    ASSERT_TRUE(got);
    EXPECT_EQ(got->at("path").size(), long_path.size());
    // Adjacent expressions that can all span the same long text, with no match: gives up quickly.
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(match("{a}{b}{c}{d}{e}{f}{g}x", std::string(20000, 'a')));
    EXPECT_FALSE(match("{+a}{+b}{+c}/x", std::string(20000, '/')));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

// ------------------------------------------------------------------ expansion details

TEST(uri_template_expand, value_kinds) {
    const uri_template t("{a}{/b}{?c,d,e}");
    json::object v{{"a", 3.0}, {"b", true}, {"c", -7}, {"d", 18446744073709551615ull}, {"e", nullptr}};
    EXPECT_EQ(t.expand(v), "3/true?c=-7&d=18446744073709551615");
    EXPECT_EQ(t.expand({}), "");
    // Null members and values are skipped; all-null composites are undefined.
    EXPECT_EQ(uri_template("{?l*}").expand({{"l", json::array{"x", nullptr, "y"}}}), "?l=x&l=y");
    EXPECT_EQ(uri_template("{?o*}").expand({{"o", json::object{{"k", nullptr}}}}), "");
    EXPECT_EQ(uri_template("{?o*}").expand({{"o", json::object{{"k", nullptr}, {"j", ""}}}}), "?j=");
    // The output of expand_to is appended.
    std::string out = "prefix:";
    uri_template("{x}").expand_to(out, {{"x", "y z"}});
    EXPECT_EQ(out, "prefix:y%20z");
}

TEST(uri_template_expand, forbidden_values_throw_with_the_expression_offset) {
    try {
        uri_template("ab{x:2}").expand({{"x", json::array{"a"}}});
        FAIL() << "expected an error";
    } catch (const uri_template_error& e) {
        EXPECT_EQ(e.offset(), 2u);
        EXPECT_NE(std::string(e.what()).find("prefix modifier :2 applied to list variable 'x'"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(uri_template("{x}").expand({{"x", json::array{json::array{"a"}}}}), uri_template_error);
    EXPECT_THROW(uri_template("{x}").expand({{"x", json::object{{"k", json::object{}}}}}),
                 uri_template_error);
}

TEST(uri_template_api, variable_names_and_try_parse) {
    const uri_template t("x{a}{/b,a}{?c}{&b*}");
    EXPECT_EQ(t.variable_names(), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(t.text(), "x{a}{/b,a}{?c}{&b*}");
    EXPECT_TRUE(uri_template::try_parse("mem://{id}"));
    EXPECT_FALSE(uri_template::try_parse("mem://{id"));
    // Copies stay usable (the parsed form holds offsets, not pointers).
    std::optional<uri_template> copy;
    {
        const uri_template original("mem://{id}{?v}");
        copy = original;
    }
    EXPECT_EQ(copy->match("mem://7?v=2"), (vars_map{{"id", "7"}, {"v", "2"}}));
    EXPECT_EQ(copy->expand({{"id", "7"}}), "mem://7");
}

// ------------------------------------------------------------------ parse errors

// The error of parsing `templ`; fails the test if it parses.
uri_template_error parse_error(std::string_view templ) {
    try {
        uri_template t(templ);
    } catch (const uri_template_error& e) {
        return e;
    }
    ADD_FAILURE() << "parsed: " << templ;
    return uri_template_error("", 0);
}

void expect_error(std::string_view templ, std::size_t offset, std::string_view words) {
    const auto e = parse_error(templ);
    const std::string what = e.what();
    EXPECT_EQ(e.offset(), offset) << what;
    EXPECT_NE(what.find(words), std::string::npos) << what;
    EXPECT_NE(what.find("at offset " + std::to_string(offset)), std::string::npos) << what;
    EXPECT_NE(what.find(std::string(templ)), std::string::npos) << what; // the template is quoted
}

TEST(uri_template_errors, say_what_and_where) {
    expect_error("mem://{id", 6, "unclosed expression");
    expect_error("mem://{id,", 6, "unclosed expression");
    expect_error("mem://id}", 8, "'}' without a matching '{'");
    expect_error("{!x}", 1, "operator '!' is reserved");
    expect_error("{=x}", 1, "operator '=' is reserved");
    expect_error("{-x}", 1, "expected a variable name, found '-'");
    expect_error("{}", 1, "expected a variable name, found '}'");
    expect_error("{a b}", 2, "invalid character ' ' in variable name 'a'");
    expect_error("{a-b}", 2, "invalid character '-' in variable name 'a'");
    expect_error("{x.}", 2, "cannot end with '.'");
    expect_error("{x..y}", 2, "'..' in a variable name");
    expect_error("{%2x}", 1, "'%' not followed by two hex digits");
    expect_error("{var:10000}", 5, "prefix length exceeds 9999");
    expect_error("{var:0}", 5, "1-9999");
    expect_error("{var:}", 5, "expected a prefix length");
    expect_error("{var:2*}", 6, "both a prefix");
    expect_error("{a,}", 3, "expected a variable name");
    expect_error("a b{x}", 1, "' ' cannot appear in a URI template literal");
    expect_error("a%2", 1, "'%' not followed by two hex digits");
    // A huge template is quoted shortened.
    const std::string huge = std::string(10000, 'a') + "{";
    EXPECT_LT(std::string(parse_error(huge).what()).size(), 400u);
    EXPECT_EQ(parse_error(huge).offset(), 10000u);
    // Accepted: the largest prefix, dotted and pct-encoded names, an apostrophe literal.
    EXPECT_NO_THROW(uri_template("{var:9999}{a.b.c}{a%20b}'x'"));
}

// ------------------------------------------------------------------ the server compiles templates

TEST(uri_template_server, invalid_template_is_refused_at_registration) {
    mcp::server s;
    auto reader = [](const std::string&, const std::map<std::string, std::string>&, mcp::context&) {
        return mcp::read_resource_result{};
    };
    try {
        s.add_resource_template({.uri_template = "mem://items/{id", .name = "bad"}, reader);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("unclosed expression"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(s.add_resource_template({.uri_template = "mem://items/{id}", .name = "ok"}, reader));
}

} // namespace
