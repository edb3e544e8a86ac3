#!/usr/bin/env bash
# tests/conformance/run.sh - the official MCP conformance suite against mcpxx's conformance
# targets (CTest: conformance.server, conformance.client, conformance.gateway; label conformance).
# The work is done by conformance.py next to this file (`run.sh --help` for the options); this
# entry point only makes sure python3 is there, so that its absence is a skip that names it.
#
#   tests/conformance/run.sh [--build DIR] [--out DIR] [--gateway] [server|client|all] [REVISION...]
#
# Exit: 0 as expected, 1 a failure, 2 usage, 77 a prerequisite is missing (skipped).
set -euo pipefail
command -v python3 >/dev/null ||
    { echo "conformance: SKIPPED: python3 is not installed (scripts/install-deps)" >&2; exit 77; }
exec python3 "$(dirname "${BASH_SOURCE[0]}")/conformance.py" "$@"
