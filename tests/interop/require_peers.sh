#!/usr/bin/env bash
# tests/interop/require_peers.sh -- COMMAND... - runs COMMAND when what the TypeScript SDK interop
# tests need is installed: a `node` on PATH and the npm peers (tests/interop/node_modules, from
# tests/interop/package.json, installed by scripts/install-deps). Otherwise it names what is
# missing and exits 77, which CTest reports as skipped (and CI counts as failed): the tests are
# always registered, so a machine without the peers shows them as not run, never as absent.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ "${1:-}" == -- ]] && shift
(($#)) || { echo "usage: require_peers.sh -- COMMAND..." >&2; exit 2; }

missing=()
command -v node >/dev/null 2>&1 || missing+=("node (Debian package nodejs)")
[[ -f "$HERE/node_modules/@modelcontextprotocol/sdk/package.json" ]] ||
    missing+=("the npm peers ($HERE/node_modules/@modelcontextprotocol/sdk)")
if ((${#missing[@]})); then
    echo "interop: SKIPPED: missing ${missing[*]}: run scripts/install-deps" >&2
    exit 77
fi
exec "$@"
