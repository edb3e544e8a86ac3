#!/usr/bin/env node
// The TypeScript SDK baseline for bench/stdio_throughput: McpServer with one tool, `echo`
// ({text: string} -> one text block), validated by zod, on StdioServerTransport. The same
// server the shared TS baseline measures, resolved against this folder's pinned SDK.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'ts-sdk-echo', version: '1.0.0' });
server.registerTool('echo', { description: 'Returns its text argument unchanged', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }] }));
await server.connect(new StdioServerTransport());
