#!/usr/bin/env node
// The TypeScript SDK baseline for bench/http_throughput: the `echo` tool ({text: string} -> one
// text block) on the SDK's Streamable HTTP server transport with JSON replies, bound to
// 127.0.0.1, in the two ways the SDK documents:
//   --mode stateless  a fresh McpServer and transport for every POST (no session ids)
//   --mode stateful   one McpServer and transport per Mcp-Session-Id, created on initialize
// Usage: node ts_echo_http.mjs --mode stateless|stateful --port N
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
};
const mode = option('mode', 'stateless');
const port = Number(option('port', '3201'));
if (mode !== 'stateless' && mode !== 'stateful') {
  console.error(`ts_echo_http: --mode must be stateless or stateful, not ${mode}`);
  process.exit(2);
}

function echoServer() {
  const server = new McpServer({ name: 'ts-sdk-echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Returns its text argument unchanged', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

const rpcError = (res, status, message) =>
  res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

const app = createMcpExpressApp({ host: '127.0.0.1' });

if (mode === 'stateless') {
  app.post('/mcp', async (req, res) => {
    const server = echoServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.get('/mcp', (req, res) => rpcError(res, 405, 'Method not allowed'));
  app.delete('/mcp', (req, res) => rpcError(res, 405, 'Method not allowed'));
} else {
  const transports = new Map();
  app.post('/mcp', async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = id ? transports.get(id) : undefined;
    if (!transport) {
      if (id || !isInitializeRequest(req.body)) return rpcError(res, id ? 404 : 400, 'No such session');
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (sid) => transports.set(sid, transport),
      });
      transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
      await echoServer().connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
  });
  const bySession = async (req, res) => {
    const transport = transports.get(req.headers['mcp-session-id']);
    if (!transport) return rpcError(res, 404, 'No such session');
    await transport.handleRequest(req, res);
  };
  app.get('/mcp', bySession);
  app.delete('/mcp', bySession);
}

app.listen(port, '127.0.0.1', () => console.error(`ts_echo_http (${mode}) on http://127.0.0.1:${port}/mcp`));
