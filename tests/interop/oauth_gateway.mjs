// A real authorization server (npm oidc-provider: client credentials, resource indicators, JWT
// access tokens) in front of which `mcpxx gateway --oauth-issuer` runs as a resource server:
//   the Protected Resource Metadata; 401 with resource_metadata; a valid token accepted; wrong
//   audience, tampered signature and alg none refused with 401; a missing scope 403
//   insufficient_scope.
//
//   node oauth_gateway.mjs MCPXX EVERYTHING_SERVER
//
// Prints one line per check and "N passed, N failed" at the end; exits 77 (skipped) when the
// package is not installed (scripts/install-deps installs it).
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

let Provider;
try {
  ({ default: Provider } = await import('oidc-provider'));
} catch {
  console.error('oauth_gateway: SKIPPED: the npm package oidc-provider is missing: run scripts/install-deps');
  process.exit(77);
}

const [mcpxx, everything] = process.argv.slice(2);
if (!mcpxx || !everything) {
  console.error('usage: node oauth_gateway.mjs MCPXX EVERYTHING_SERVER');
  process.exit(2);
}

const clientId = 'mcp-test-client';
const clientSecret = 'a-client-secret-for-tests-only-0123456789';
const scopes = 'mcp:tools other';

// The authorization server, on a port of its own.
const http = createServer();
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${http.address().port}`;
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-rs256', alg: 'RS256', use: 'sig' };
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
  jwks: { keys: [signingKey] },
  scopes: ['openid', ...scopes.split(' ')],
  ttl: { ClientCredentials: 300 },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, resource) => ({
        scope: scopes,
        audience: resource,
        accessTokenTTL: 300,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
});
http.on('request', provider.callback());

// The gateway in front of everything_server.
const dir = mkdtempSync(join(tmpdir(), 'mcpxx-oauth-'));
writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { everything: { command: everything } } }));
const gateway = spawn(
  mcpxx,
  ['gateway', '--config', join(dir, 'mcp.json'), '--listen', '127.0.0.1:0', '--approve-all', '--log-level', 'warning',
    '--oauth-issuer', issuer, '--oauth-scope', 'mcp:tools'],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg') } },
);
let gatewayLog = '';
gateway.stderr.on('data', (d) => (gatewayLog += d));
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`the gateway did not start:\n${gatewayLog}`)), 30000);
  createInterface({ input: gateway.stdout }).on('line', (line) => {
    const m = line.match(/connect to (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
  gateway.on('exit', (code) => reject(new Error(`the gateway exited (${code}):\n${gatewayLog}`)));
});
const origin = new URL(url).origin;

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

async function listTools(accessToken) {
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

try {
  const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
  const meta = await fetch(metadataUrl);
  const doc = meta.status === 200 ? await meta.json() : {};
  check('protected resource metadata', doc.resource === url && doc.authorization_servers?.[0] === issuer,
    JSON.stringify(doc));

  const none = await listTools();
  const challenge = none.headers.get('www-authenticate') ?? '';
  check('no token: 401 with resource_metadata', none.status === 401 && challenge.includes(`resource_metadata="${metadataUrl}"`),
    `${none.status} ${challenge}`);

  const good = await token(url, 'mcp:tools');
  const ok = await listTools(good);
  const listed = ok.status === 200 ? await ok.json() : {};
  check('a token of the authorization server is accepted', (listed.result?.tools?.length ?? 0) > 10,
    `${ok.status} ${JSON.stringify(listed).slice(0, 300)}`);

  const elsewhere = await listTools(await token('https://other.example/mcp', 'mcp:tools'));
  check('a token for another audience: 401', elsewhere.status === 401 &&
    (elsewhere.headers.get('www-authenticate') ?? '').includes('another audience'),
    `${elsewhere.status} ${elsewhere.headers.get('www-authenticate')}`);

  const [h, p, s] = good.split('.');
  const tamperedSig = `${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
  const tampered = await listTools(tamperedSig);
  check('a tampered signature: 401', tampered.status === 401, String(tampered.status));

  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  const forged = await listTools(`${h}.${b64url(JSON.stringify({ ...claims, sub: 'root' }))}.${s}`);
  check('a changed payload: 401', forged.status === 401, String(forged.status));

  const algNone = await listTools(`${b64url(JSON.stringify({ alg: 'none', typ: 'at+jwt' }))}.${p}.`);
  check('alg none: 401', algNone.status === 401, String(algNone.status));

  const noScope = await listTools(await token(url, 'other'));
  const scopeChallenge = noScope.headers.get('www-authenticate') ?? '';
  check('a token without the scope: 403 insufficient_scope', noScope.status === 403 &&
    scopeChallenge.includes('error="insufficient_scope"') && scopeChallenge.includes('scope="mcp:tools"'),
    `${noScope.status} ${scopeChallenge}`);

  check('no token in the gateway log', !gatewayLog.includes(good) && !gatewayLog.includes(s), 'a token was logged');
} catch (e) {
  check('the exchange', false, e.stack ?? String(e));
}

gateway.kill('SIGTERM');
await new Promise((resolve) => gateway.on('exit', resolve));
http.close();
rmSync(dir, { recursive: true, force: true });
if (failed) console.log(`gateway log:\n${gatewayLog}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
