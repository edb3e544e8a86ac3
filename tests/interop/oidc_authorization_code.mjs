// A real authorization server (npm oidc-provider) for the authorization code flow: dynamic
// client registration, PKCE, resource indicators with JWT access tokens whose audience is the
// resource, and the package's development login and consent pages (any user name, any
// password). client_oauth_vs_oidc_provider_test.cpp starts it and drives the pages as a browser.
//
//   node oidc_authorization_code.mjs PORT LOG
//
// Listens on 127.0.0.1:PORT (issuer http://127.0.0.1:PORT); appends one JSON line per
// authorization, token and registration request to LOG (route, status, the `resource` and
// grant_type parameters; never a code, token or secret). Exits 77 when the package is missing.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { jwtResourceIndicators, signingKeys } from './oidc_provider_settings.mjs';

let Provider;
try {
  ({ default: Provider } = await import('oidc-provider'));
} catch {
  console.error('oidc_authorization_code: SKIPPED: the npm package oidc-provider is missing: run scripts/install-deps');
  process.exit(77);
}

const [port, logFile] = process.argv.slice(2);
if (!port || !logFile) {
  console.error('usage: node oidc_authorization_code.mjs PORT LOG');
  process.exit(2);
}

const scopes = 'mcp:tools';
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  jwks: signingKeys(),
  scopes: ['openid', 'offline_access', ...scopes.split(' ')],
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: jwtResourceIndicators(scopes),
  },
});

// What the client asked for, as the authorization server saw it.
provider.use(async (ctx, next) => {
  await next();
  const route = ctx.oidc?.route;
  if (!['authorization', 'token', 'registration'].includes(route)) return;
  const params = ctx.oidc.params ?? {};
  appendFileSync(logFile, `${JSON.stringify({
    route, status: ctx.status, grant_type: params.grant_type, resource: params.resource,
    code_challenge_method: params.code_challenge_method,
  })}\n`);
});

const http = createServer(provider.callback());
http.listen(Number(port), '127.0.0.1');
http.on('error', (e) => {
  console.error(`oidc_authorization_code: ${e.message}`);
  process.exit(1);
});
