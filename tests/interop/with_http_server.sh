#!/usr/bin/env bash
# tests/interop/with_http_server.sh - run a client command against an HTTP MCP server started on a
# free loopback port for the duration of the command.
#
#   with_http_server.sh [--path /mcp] -- SERVER_CMD... {port} ... -- CLIENT_CMD... {url} ...
#
# In SERVER_CMD, {port} is replaced by the port; in CLIENT_CMD, {url} by http://127.0.0.1:PORT/PATH
# and {port} by the port. The server is started in its own process group, waited for (it must
# answer an HTTP request within 20 s), and stopped (SIGTERM, then SIGKILL) when the client ends.
# Exit: the client's exit code; 3 when the server did not come up.
set -uo pipefail

path=/mcp
if [[ "${1:-}" == --path ]]; then
    path=$2
    shift 2
fi
[[ "${1:-}" == -- ]] || { echo "usage: with_http_server.sh [--path P] -- SERVER... -- CLIENT..." >&2; exit 2; }
shift
server=()
while (($#)) && [[ "$1" != -- ]]; do server+=("$1"); shift; done
[[ "${1:-}" == -- ]] || { echo "with_http_server.sh: missing -- before the client command" >&2; exit 2; }
shift
client=("$@")

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port$path"
server=("${server[@]//\{port\}/$port}")
client=("${client[@]//\{url\}/$url}")
client=("${client[@]//\{port\}/$port}")

setsid "${server[@]}" &
pgid=$!
stop() {
    kill -TERM -- "-$pgid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 -- "-$pgid" 2>/dev/null || return; sleep 0.1; done
    kill -KILL -- "-$pgid" 2>/dev/null
}
trap stop EXIT

for _ in $(seq 1 200); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port/" 2>/dev/null || true)
    [[ -n "$code" && "$code" != 000 ]] && break
    kill -0 "$pgid" 2>/dev/null || { echo "with_http_server.sh: the server exited early" >&2; exit 3; }
    sleep 0.1
done
[[ -n "${code:-}" && "$code" != 000 ]] || { echo "with_http_server.sh: the server did not answer on $url" >&2; exit 3; }

"${client[@]}"
