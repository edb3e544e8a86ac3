#!/usr/bin/env node
// ts_client.mjs - drive an MCP server over stdio with the official TypeScript SDK client
// (@modelcontextprotocol/sdk, pinned in package.json) and check what it answers.
//
// Usage:
//   node ts_client.mjs [options] [--] <server command> [server args...]
//
// Checks (one line each: "ok - <name>" or "not ok - <name>: <reason>"; exit 1 on any failure):
//   initialize, ping, tools/list (all pages), resources/list, resources/templates/list,
//   prompts/list (all pages; skipped when the server lacks the capability unless --require'd),
//   read the first listed resource, get the first prompt without required arguments,
//   logging/setLevel, call `echo` (default {"text":"hi"} -> text "hi"), call `add` if listed
//   ({"a":2,"b":3} -> text containing 5 and structuredContent.sum == 5), call an unknown tool and
//   expect an error (a JSON-RPC error or a result with isError), plus any --call checks.
//
// The client declares sampling, elicitation (form + url) and roots, and answers them with fixed
// content, so server -> client requests work:
//   sampling/createMessage -> {role: assistant, content: text SAMPLING_TEXT, model: "mcpxx-test-model"}
//   elicitation/create     -> accept, with a value for every requested property that fits its
//                             schema (default, enum/oneOf, format, min/max); url mode -> accept
//   roots/list             -> [{uri: "file:///tmp/mcpxx-roots", name: "mcpxx-test-root"}]
//
// Options:
//   --require CAPS          comma list of server capabilities that must be present
//                           (tools,resources,prompts,logging,completions); default: tools
//   --expect-tool NAME      a tool that must be listed (repeatable)
//   --echo-args JSON        arguments for `echo` (default {"text":"hi"})
//   --echo-expect TEXT      expected text of echo's first content block (default "hi")
//   --no-echo               do not call `echo`
//   --call JSON             extra tool call check (repeatable):
//                           {"name": "...", "arguments": {...},
//                            "expectText": "substring of the joined text blocks",   (optional)
//                            "expectError": true,          (optional: isError or JSON-RPC error)
//                            "expectStructured": {...}}    (optional: subset of structuredContent)
//   --expect-sampling       at least one sampling/createMessage must have been answered
//   --expect-elicitation    at least one elicitation/create must have been answered
//   --expect-roots          at least one roots/list must have been answered
//   --timeout MS            per-request timeout (default 15000)
//   --deadline MS           whole-run watchdog (default 120000)
//   --verbose               print server info and listings to stderr
//   --cwd DIR, --env K=V    working directory / extra environment for the server process
//   --url URL               talk to an already running server over Streamable HTTP instead of
//                           starting one over stdio (no server command then)
//
// Exit codes: 0 all ok, 1 some check failed, 2 usage error.
// Example (against the npm peer; its echo takes "message"):
//   node ts_client.mjs --echo-args '{"message":"hi"}' --echo-expect 'Echo: hi' \
//     --call '{"name":"trigger-sampling-request","arguments":{"prompt":"x"},"expectText":"mcpxx sample"}' \
//     --expect-sampling -- node node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio

import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
    CreateMessageRequestSchema,
    ElicitRequestSchema,
    ListRootsRequestSchema,
    LoggingMessageNotificationSchema,
    McpError,
} from "@modelcontextprotocol/sdk/types.js";

export const SAMPLING_TEXT = "mcpxx sample";
export const SAMPLING_MODEL = "mcpxx-test-model";
export const ROOT = { uri: "file:///tmp/mcpxx-roots", name: "mcpxx-test-root" };

// ------------------------------------------------------------------------------------------------
// argument parsing
// ------------------------------------------------------------------------------------------------
function usage(msg) {
    if (msg) process.stderr.write(`ts_client: ${msg}\n`);
    process.stderr.write("usage: node ts_client.mjs [options] [--] <server command> [args...]\n");
    process.exit(2);
}

function parseJson(what, text) {
    try {
        return JSON.parse(text);
    } catch (e) {
        usage(`${what}: invalid JSON (${e.message})`);
    }
}

function parseArgs(argv) {
    const o = {
        require: ["tools"],
        expectTools: [],
        echo: true,
        echoArgs: { text: "hi" },
        echoExpect: "hi",
        calls: [],
        expectSampling: false,
        expectElicitation: false,
        expectRoots: false,
        timeout: 15000,
        deadline: 120000,
        verbose: false,
        cwd: undefined,
        env: {},
        command: [],
    };
    let i = 0;
    const next = (flag) => {
        if (i + 1 >= argv.length) usage(`${flag} needs a value`);
        return argv[++i];
    };
    for (; i < argv.length; ++i) {
        const a = argv[i];
        if (a === "--") {
            o.command = argv.slice(i + 1);
            break;
        }
        if (!a.startsWith("--")) {
            o.command = argv.slice(i);
            break;
        }
        switch (a) {
            case "--require":
                o.require = next(a).split(",").map((s) => s.trim()).filter(Boolean);
                break;
            case "--expect-tool": o.expectTools.push(next(a)); break;
            case "--echo-args": o.echoArgs = parseJson(a, next(a)); break;
            case "--echo-expect": o.echoExpect = next(a); break;
            case "--no-echo": o.echo = false; break;
            case "--call": {
                const c = parseJson(a, next(a));
                if (!c || typeof c.name !== "string") usage("--call needs an object with a \"name\"");
                o.calls.push(c);
                break;
            }
            case "--expect-sampling": o.expectSampling = true; break;
            case "--expect-elicitation": o.expectElicitation = true; break;
            case "--expect-roots": o.expectRoots = true; break;
            case "--timeout": o.timeout = Number(next(a)); break;
            case "--deadline": o.deadline = Number(next(a)); break;
            case "--verbose": o.verbose = true; break;
            case "--cwd": o.cwd = next(a); break;
            case "--url": o.url = next(a); break;
            case "--env": {
                const kv = next(a);
                const eq = kv.indexOf("=");
                if (eq <= 0) usage("--env needs K=V");
                o.env[kv.slice(0, eq)] = kv.slice(eq + 1);
                break;
            }
            case "--help": case "-h":
                usage();
                break;
            default:
                usage(`unknown option ${a}`);
        }
    }
    if (o.command.length === 0 && !o.url) usage("missing server command (or --url)");
    if (!(o.timeout > 0) || !(o.deadline > 0)) usage("--timeout/--deadline must be positive");
    return o;
}

// ------------------------------------------------------------------------------------------------
// reporting
// ------------------------------------------------------------------------------------------------
let passed = 0;
let failed = 0;
let skipped = 0;

function oneLine(s) {
    return String(s).replace(/\s+/g, " ").trim().slice(0, 400);
}
function ok(name, note) {
    ++passed;
    console.log(`ok - ${name}${note ? ` # ${oneLine(note)}` : ""}`);
}
function notOk(name, reason) {
    ++failed;
    console.log(`not ok - ${name}: ${oneLine(reason)}`);
}
function skip(name, why) {
    ++skipped;
    console.log(`ok - ${name} # SKIP ${oneLine(why)}`);
}
function errText(e) {
    if (e instanceof McpError) return `MCP error ${e.code}: ${e.message}`;
    return e && e.message ? e.message : String(e);
}

class CheckFailure extends Error {}
function expect(cond, msg) {
    if (!cond) throw new CheckFailure(msg);
}

// Run one check: fn returns an optional note, throws on failure.
async function check(name, fn) {
    try {
        ok(name, await fn());
        return true;
    } catch (e) {
        notOk(name, errText(e));
        return false;
    }
}

// ------------------------------------------------------------------------------------------------
// fixed answers to server -> client requests
// ------------------------------------------------------------------------------------------------
const received = { sampling: 0, elicitation: 0, roots: 0, logs: 0 };

function valueForSchema(s) {
    if (!s || typeof s !== "object") return "mcpxx";
    if (s.default !== undefined) return s.default;
    if (s.const !== undefined) return s.const;
    if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
    for (const k of ["oneOf", "anyOf"]) {
        if (Array.isArray(s[k]) && s[k].length) {
            const first = s[k][0];
            if (first && first.const !== undefined) return first.const;
            return valueForSchema(first);
        }
    }
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
    switch (type) {
        case "boolean":
            return true;
        case "integer":
        case "number": {
            let v = 42;
            if (typeof s.minimum === "number" && v < s.minimum) v = s.minimum;
            if (typeof s.maximum === "number" && v > s.maximum) v = s.maximum;
            if (type === "integer") v = Math.ceil(v);
            return v;
        }
        case "array": {
            const items = s.items || {};
            const n = Math.max(1, s.minItems || 0);
            const vals = [];
            const pool = Array.isArray(items.enum) ? items.enum
                : Array.isArray(items.anyOf) ? items.anyOf.map((x) => x.const)
                : Array.isArray(items.oneOf) ? items.oneOf.map((x) => x.const) : null;
            for (let i = 0; i < n; ++i) vals.push(pool && pool.length ? pool[i % pool.length] : valueForSchema(items));
            return vals;
        }
        case "object":
            return {};
        default: {
            const byFormat = {
                email: "mcpxx@example.com",
                uri: "https://example.com/mcpxx",
                date: "2025-01-02",
                "date-time": "2025-01-02T03:04:05Z",
            };
            let v = byFormat[s.format] ?? "mcpxx";
            if (typeof s.minLength === "number" && v.length < s.minLength) v = v.padEnd(s.minLength, "x");
            if (typeof s.maxLength === "number" && v.length > s.maxLength) v = v.slice(0, s.maxLength);
            return v;
        }
    }
}

export function elicitationAnswer(params) {
    if (params && params.mode === "url") return { action: "accept" };
    const props = (params && params.requestedSchema && params.requestedSchema.properties) || {};
    const content = {};
    for (const [k, s] of Object.entries(props)) content[k] = valueForSchema(s);
    return { action: "accept", content };
}

export function samplingAnswer() {
    return {
        role: "assistant",
        content: { type: "text", text: SAMPLING_TEXT },
        model: SAMPLING_MODEL,
        stopReason: "endTurn",
    };
}

export function makeClient(name = "mcpxx-ts-client") {
    const client = new Client(
        { name, version: "1.0.0" },
        { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
        ++received.sampling;
        return samplingAnswer();
    });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
        ++received.elicitation;
        return elicitationAnswer(req.params);
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => {
        ++received.roots;
        return { roots: [ROOT] };
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, async () => {
        ++received.logs;
    });
    return client;
}

// ------------------------------------------------------------------------------------------------
// helpers
// ------------------------------------------------------------------------------------------------
const MAX_PAGES = 1000;

// Follow nextCursor until it is absent; fail on a repeated cursor (a loop) or too many pages.
async function listAll(fn, key, opts) {
    const items = [];
    const seen = new Set();
    let cursor;
    let pages = 0;
    for (;;) {
        const r = await fn(cursor === undefined ? {} : { cursor }, opts);
        expect(r && Array.isArray(r[key]), `result has no "${key}" array`);
        items.push(...r[key]);
        ++pages;
        if (r.nextCursor === undefined || r.nextCursor === null) break;
        expect(typeof r.nextCursor === "string", "nextCursor is not a string");
        expect(!seen.has(r.nextCursor), `nextCursor ${JSON.stringify(r.nextCursor)} repeated`);
        expect(pages < MAX_PAGES, `more than ${MAX_PAGES} pages`);
        seen.add(r.nextCursor);
        cursor = r.nextCursor;
    }
    return { items, pages };
}

function texts(result) {
    return (result.content || []).filter((c) => c && c.type === "text").map((c) => c.text);
}

// true when every key of `want` equals (deeply) the same key of `got`
function isSubset(want, got) {
    if (want === null || typeof want !== "object") return Object.is(want, got) || want === got;
    if (got === null || typeof got !== "object") return false;
    if (Array.isArray(want)) {
        return Array.isArray(got) && want.length === got.length && want.every((w, i) => isSubset(w, got[i]));
    }
    return Object.entries(want).every(([k, v]) => isSubset(v, got[k]));
}

function hasRequiredArgs(prompt) {
    return Array.isArray(prompt.arguments) && prompt.arguments.some((a) => a && a.required);
}

// ------------------------------------------------------------------------------------------------
// the run
// ------------------------------------------------------------------------------------------------
async function run(o) {
    const reqOpts = { timeout: o.timeout };
    const client = makeClient();
    const [command, ...args] = o.command;
    const transport = o.url
        ? new StreamableHTTPClientTransport(new URL(o.url))
        : new StdioClientTransport({
              command,
              args,
              cwd: o.cwd,
              env: { ...getDefaultEnvironment(), ...process.env, ...o.env },
              stderr: "inherit",
          });
    let closed = false;
    transport.onclose = () => {
        closed = true;
    };

    if (!(await check("initialize", async () => {
        await client.connect(transport, reqOpts);
        const info = client.getServerVersion();
        expect(info && typeof info.name === "string", "no serverInfo.name");
        return `${info.name} ${info.version ?? ""}`;
    }))) {
        return;
    }
    const caps = client.getServerCapabilities() || {};
    if (o.verbose) process.stderr.write(`server capabilities: ${JSON.stringify(caps)}\n`);

    for (const c of o.require) {
        await check(`capability ${c}`, async () => {
            expect(caps[c] !== undefined, `server did not declare "${c}"`);
        });
    }

    await check("ping", async () => {
        const r = await client.ping(reqOpts);
        expect(r && typeof r === "object", "ping result is not an object");
    });

    // ---- tools
    let tools = [];
    if (caps.tools !== undefined || o.require.includes("tools")) {
        await check("tools/list", async () => {
            const { items, pages } = await listAll((p, ro) => client.listTools(p, ro), "tools", reqOpts);
            tools = items;
            const names = new Set();
            for (const t of items) {
                expect(t && typeof t.name === "string" && t.name.length > 0, "a tool without a name");
                expect(!names.has(t.name), `duplicate tool ${t.name}`);
                names.add(t.name);
                expect(t.inputSchema && t.inputSchema.type === "object",
                    `tool ${t.name}: inputSchema.type is not "object"`);
            }
            if (o.verbose) process.stderr.write(`tools: ${[...names].join(", ")}\n`);
            return `${items.length} tools, ${pages} page(s)`;
        });
    } else {
        skip("tools/list", "no tools capability");
    }
    const toolNames = new Set(tools.map((t) => t.name));
    for (const t of o.expectTools) {
        await check(`tool ${t} listed`, async () => expect(toolNames.has(t), `"${t}" not in tools/list`));
    }

    // ---- resources
    if (caps.resources !== undefined || o.require.includes("resources")) {
        let resources = [];
        await check("resources/list", async () => {
            const { items, pages } = await listAll((p, ro) => client.listResources(p, ro), "resources", reqOpts);
            for (const r of items) {
                expect(r && typeof r.uri === "string" && typeof r.name === "string", "a resource without uri/name");
            }
            resources = items;
            return `${items.length} resources, ${pages} page(s)`;
        });
        await check("resources/templates/list", async () => {
            const { items, pages } = await listAll((p, ro) => client.listResourceTemplates(p, ro),
                "resourceTemplates", reqOpts);
            for (const t of items) {
                expect(t && typeof t.uriTemplate === "string" && typeof t.name === "string",
                    "a template without uriTemplate/name");
            }
            return `${items.length} templates, ${pages} page(s)`;
        });
        if (resources.length) {
            const first = resources[0];
            await check("resources/read first", async () => {
                const r = await client.readResource({ uri: first.uri }, reqOpts);
                expect(Array.isArray(r.contents) && r.contents.length > 0, "no contents");
                for (const c of r.contents) {
                    expect(typeof c.uri === "string", "content without uri");
                    expect(typeof c.text === "string" || typeof c.blob === "string", "content without text/blob");
                }
                return first.uri;
            });
        } else {
            skip("resources/read first", "no resources listed");
        }
    } else {
        skip("resources/list", "no resources capability");
    }

    // ---- prompts
    if (caps.prompts !== undefined || o.require.includes("prompts")) {
        let prompts = [];
        await check("prompts/list", async () => {
            const { items, pages } = await listAll((p, ro) => client.listPrompts(p, ro), "prompts", reqOpts);
            for (const p of items) expect(p && typeof p.name === "string", "a prompt without a name");
            prompts = items;
            return `${items.length} prompts, ${pages} page(s)`;
        });
        const simple = prompts.find((p) => !hasRequiredArgs(p));
        if (simple) {
            await check("prompts/get first without required args", async () => {
                const r = await client.getPrompt({ name: simple.name }, reqOpts);
                expect(Array.isArray(r.messages) && r.messages.length > 0, "no messages");
                for (const m of r.messages) {
                    expect(m.role === "user" || m.role === "assistant", `bad role ${m.role}`);
                    expect(m.content && typeof m.content.type === "string", "message without content");
                }
                return simple.name;
            });
        } else {
            skip("prompts/get first without required args", "no such prompt listed");
        }
    } else {
        skip("prompts/list", "no prompts capability");
    }

    // ---- logging
    if (caps.logging !== undefined || o.require.includes("logging")) {
        await check("logging/setLevel", async () => {
            const r = await client.setLoggingLevel("debug", reqOpts);
            expect(r && typeof r === "object", "result is not an object");
        });
    } else {
        skip("logging/setLevel", "no logging capability");
    }

    // ---- tool calls
    const callTool = (name, args) => client.callTool({ name, arguments: args }, undefined, reqOpts);
    if (o.echo) {
        await check("tools/call echo", async () => {
            const r = await callTool("echo", o.echoArgs);
            expect(!r.isError, `isError: ${texts(r).join(" ")}`);
            const t = texts(r);
            expect(t.length > 0, "no text content");
            expect(t[0] === o.echoExpect, `text ${JSON.stringify(t[0])}, expected ${JSON.stringify(o.echoExpect)}`);
        });
    }
    if (toolNames.has("add")) {
        await check("tools/call add", async () => {
            const r = await callTool("add", { a: 2, b: 3 });
            expect(!r.isError, `isError: ${texts(r).join(" ")}`);
            expect(texts(r).some((t) => /\b5(\.0+)?\b/.test(t)), `no "5" in text ${JSON.stringify(texts(r))}`);
            expect(r.structuredContent && r.structuredContent.sum === 5,
                `structuredContent ${JSON.stringify(r.structuredContent)}, expected {"sum":5}`);
        });
    }
    await check("tools/call unknown tool is an error", async () => {
        const name = "mcpxx-no-such-tool-1f3a";
        let r;
        try {
            r = await callTool(name, {});
        } catch (e) {
            expect(e instanceof McpError, `not a JSON-RPC error: ${errText(e)}`);
            return `JSON-RPC error ${e.code}`;
        }
        expect(r.isError === true, "succeeded");
        return "isError result";
    });
    for (const c of o.calls) {
        await check(`tools/call ${c.name}`, async () => {
            let r;
            try {
                r = await callTool(c.name, c.arguments ?? {});
            } catch (e) {
                if (c.expectError) return `JSON-RPC error ${e.code ?? ""}`;
                throw e;
            }
            if (c.expectError) {
                expect(r.isError === true, "expected an error, got a result without isError");
                return "isError result";
            }
            expect(!r.isError, `isError: ${texts(r).join(" ")}`);
            if (c.expectText !== undefined) {
                const all = texts(r).join("\n");
                expect(all.includes(c.expectText),
                    `text ${JSON.stringify(all.slice(0, 200))} lacks ${JSON.stringify(c.expectText)}`);
            }
            if (c.expectStructured !== undefined) {
                expect(isSubset(c.expectStructured, r.structuredContent),
                    `structuredContent ${JSON.stringify(r.structuredContent)} lacks ${JSON.stringify(c.expectStructured)}`);
            }
        });
    }

    // ---- server -> client requests
    if (o.expectSampling) {
        await check("sampling/createMessage answered", async () =>
            expect(received.sampling > 0, "the server sent no sampling request"));
    }
    if (o.expectElicitation) {
        await check("elicitation/create answered", async () =>
            expect(received.elicitation > 0, "the server sent no elicitation request"));
    }
    if (o.expectRoots) {
        await check("roots/list answered", async () =>
            expect(received.roots > 0, "the server sent no roots/list request"));
    }

    await check("connection still open", async () => expect(!closed, "the server closed the connection"));
    try {
        await client.close();
    } catch {
        // closing a dead transport is not a check
    }
}

function isMainModule() {
    try {
        return !!process.argv[1] && pathToFileURL(realpathSync(process.argv[1])).href === import.meta.url;
    } catch {
        return false;
    }
}
const isMain = isMainModule();
if (isMain) {
    const o = parseArgs(process.argv.slice(2));
    const watchdog = setTimeout(() => {
        notOk("deadline", `run exceeded ${o.deadline} ms`);
        console.log(`# ts_client: ${passed} ok, ${failed} not ok, ${skipped} skipped`);
        process.exit(1);
    }, o.deadline);
    try {
        await run(o);
    } catch (e) {
        notOk("run", errText(e));
    }
    clearTimeout(watchdog);
    console.log(`# ts_client: ${passed} ok, ${failed} not ok, ${skipped} skipped`);
    process.exit(failed ? 1 : 0);
}
