// A real authorization server (npm oidc-provider: client credentials, resource indicators, JWT
// access tokens) in front of which `mcpxx gateway --oauth-issuer` and an example server
// (`echo_server --http ... --oauth-issuer`) run as resource servers: the Protected Resource
// Metadata; 401 with resource_metadata; a valid token accepted; wrong audience, tampered
// signature and alg none refused with 401; a missing scope 403 insufficient_scope.
//
//   node oauth_gateway.mjs MCPXX EVERYTHING_SERVER ECHO_SERVER
//
// Prints one line per check and "N passed, N failed" at the end; exits 77 (skipped) when the
// package is not installed (scripts/install-deps installs it).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { jwtResourceIndicators, signingKeys } from './oidc_provider_settings.mjs';

let Provider;
try {
  ({ default: Provider } = await import('oidc-provider'));
} catch {
  console.error('oauth_gateway: SKIPPED: the npm package oidc-provider is missing: run scripts/install-deps');
  process.exit(77);
}

const [mcpxx, everything, echo] = process.argv.slice(2);
if (!mcpxx || !everything || !echo) {
  console.error('usage: node oauth_gateway.mjs MCPXX EVERYTHING_SERVER ECHO_SERVER');
  process.exit(2);
}

const clientId = 'mcp-test-client';
const clientSecret = 'a-client-secret-for-tests-only-0123456789';
const scopes = 'mcp:tools other';

// The authorization server, on a port of its own.
const http = createServer();
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${http.address().port}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: scopes,
    },
  ],
  jwks: signingKeys(),
  scopes: ['openid', ...scopes.split(' ')],
  ttl: { ClientCredentials: 300 },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: jwtResourceIndicators(scopes),
  },
});
http.on('request', provider.callback());

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
}

async function token(resource, scope) {
  const r = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
  });
  const body = await r.json();
  if (!body.access_token) throw new Error(`no token from ${issuer}: ${JSON.stringify(body)}`);
  return body.access_token;
}

async function listTools(url, accessToken) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/list',
  };
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }),
  });
}

const b64url = (s) => Buffer.from(s).toString('base64url');

/// Every check against the resource server at `url`, whose log so far `log()` returns.
async function checkResourceServer(name, url, expectedTools, log) {
  const origin = new URL(url).origin;
  const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
  const meta = await fetch(metadataUrl);
  const doc = meta.status === 200 ? await meta.json() : {};
  check(`${name}: protected resource metadata`, doc.resource === url && doc.authorization_servers?.[0] === issuer,
    JSON.stringify(doc));

  const none = await listTools(url);
  const challenge = none.headers.get('www-authenticate') ?? '';
  check(`${name}: no token: 401 with resource_metadata`,
    none.status === 401 && challenge.includes(`resource_metadata="${metadataUrl}"`), `${none.status} ${challenge}`);

  const good = await token(url, 'mcp:tools');
  const ok = await listTools(url, good);
  const listed = ok.status === 200 ? await ok.json() : {};
  check(`${name}: a token of the authorization server is accepted`,
    (listed.result?.tools?.length ?? 0) >= expectedTools, `${ok.status} ${JSON.stringify(listed).slice(0, 300)}`);

  const elsewhere = await listTools(url, await token('https://other.example/mcp', 'mcp:tools'));
  check(`${name}: a token for another audience: 401`, elsewhere.status === 401 &&
    (elsewhere.headers.get('www-authenticate') ?? '').includes('another audience'),
    `${elsewhere.status} ${elsewhere.headers.get('www-authenticate')}`);

  const [h, p, s] = good.split('.');
  const tampered = await listTools(url, `${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`);
  check(`${name}: a tampered signature: 401`, tampered.status === 401, String(tampered.status));

  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  const forged = await listTools(url, `${h}.${b64url(JSON.stringify({ ...claims, sub: 'root' }))}.${s}`);
  check(`${name}: a changed payload: 401`, forged.status === 401, String(forged.status));

  const algNone = await listTools(url, `${b64url(JSON.stringify({ alg: 'none', typ: 'at+jwt' }))}.${p}.`);
  check(`${name}: alg none: 401`, algNone.status === 401, String(algNone.status));

  const noScope = await listTools(url, await token(url, 'other'));
  const scopeChallenge = noScope.headers.get('www-authenticate') ?? '';
  check(`${name}: a token without the scope: 403 insufficient_scope`, noScope.status === 403 &&
    scopeChallenge.includes('error="insufficient_scope"') && scopeChallenge.includes('scope="mcp:tools"'),
    `${noScope.status} ${scopeChallenge}`);

  check(`${name}: no token in its log`, !log().includes(good) && !log().includes(s), 'a token was logged');
}

/// Start `command args`: the process, `ready` (its URL, once `urlOf` finds it in a line of its
/// stdout) and its stderr so far.
function startServer(command, args, env, urlOf) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let log = '';
  child.stderr.on('data', (d) => (log += d));
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start:\n${log}`)), 30000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const url = urlOf(line);
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.on('exit', (code) => reject(new Error(`${command} exited (${code}):\n${log}`)));
  });
  return { child, ready, log: () => log };
}

async function freePort() {
  const s = createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

async function waitForListening(url) {
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(url, { method: 'GET' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error(`nothing listens at ${url}`);
}

const dir = mkdtempSync(join(tmpdir(), 'mcpxx-oauth-'));
const children = [];
try {
  // The gateway in front of everything_server.
  writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: everything } } }));
  const gateway = startServer(mcpxx,
    ['gateway', '--config', join(dir, 'mcp.json'), '--listen', '127.0.0.1:0', '--approve-all',
      '--log-level', 'warning', '--oauth-issuer', issuer, '--oauth-scope', 'mcp:tools'],
    { XDG_CONFIG_HOME: join(dir, 'xdg') },
    (line) => line.match(/connect to (http:\/\/127\.0\.0\.1:\d+\/mcp)/)?.[1]);
  children.push(gateway);
  await checkResourceServer('gateway', await gateway.ready, 10, gateway.log);

  // An example server's --http mode (it prints nothing: its port is chosen here).
  const port = await freePort();
  const echoUrl = `http://127.0.0.1:${port}/mcp`;
  const echoServer = startServer(echo,
    ['--http', `127.0.0.1:${port}`, '--oauth-issuer', issuer, '--oauth-scope', 'mcp:tools'], {}, () => null);
  children.push(echoServer);
  await waitForListening(echoUrl);
  await checkResourceServer('echo_server', echoUrl, 1, echoServer.log);
} catch (e) {
  check('the exchange', false, e.stack ?? String(e));
}

for (const { child } of children) {
  child.kill('SIGTERM');
  if (child.exitCode === null) await new Promise((resolve) => child.on('exit', resolve));
}
http.close();
rmSync(dir, { recursive: true, force: true });
if (failed) for (const { log } of children) console.log(`server log:\n${log()}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
