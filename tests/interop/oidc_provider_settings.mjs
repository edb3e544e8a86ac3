// What the OAuth interop tests configure alike in npm oidc-provider: an RS256 signing key made
// for the run, and resource indicators (RFC 8707) under which every resource gets JWT access
// tokens whose audience is that resource. oauth_gateway.mjs and oidc_authorization_code.mjs.
import { generateKeyPairSync } from 'node:crypto';

/// A JWKS with one fresh RSA signing key.
export function signingKeys() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-rs256', alg: 'RS256', use: 'sig' }] };
}

/// features.resourceIndicators: `scopes` (space-separated) for every resource, JWT tokens for
/// 300 s with aud = the resource, the granted resource when a token request names none.
export function jwtResourceIndicators(scopes) {
  return {
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
  };
}
