#!/usr/bin/env bash
# tests/package/run.sh [BUILD_DIR] - the find_package(mcpxx) consumer test.
#
# Installs the library built in BUILD_DIR (default: <repo>/build) into a scratch prefix, then
# configures, builds and runs tests/package (find_package(mcpxx REQUIRED) + mcpxx::mcpxx) against
# that prefix only, and checks that the installed tree holds the licence (share/doc/mcpxx/LICENSE).
# Prints "PASS: package consumer" or "FAIL: package consumer (<step>)" as the last line; exit 0
# on PASS, 1 on FAIL. Set KEEP_TMP=1 to keep the scratch directory.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${1:-$ROOT/build}
[[ "$BUILD" == /* ]] || BUILD="$PWD/$BUILD"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mcpxx-package.XXXXXX")
if [[ "${KEEP_TMP:-}" != 1 ]]; then
    trap 'rm -rf "$TMP"' EXIT
else
    echo "package test: scratch directory $TMP" >&2
fi
PREFIX="$TMP/prefix"
CBUILD="$TMP/build"
LOG="$TMP/log"

fail() {
    echo "---- package test log ($1) ----"
    tail -n 80 "$LOG"
    echo "FAIL: package consumer ($1)"
    exit 1
}
step() { # step NAME command...
    local name=$1
    shift
    echo "+ $*" >>"$LOG"
    "$@" >>"$LOG" 2>&1 || fail "$name"
}

: >"$LOG"
[[ -f "$BUILD/CMakeCache.txt" ]] || { echo "no configured build in $BUILD" >"$LOG"; fail "no build"; }

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Same compiler as the library (a different standard library would not link).
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -n1)
compiler=()
[[ -n "$cxx" ]] && compiler=(-DCMAKE_CXX_COMPILER="$cxx")

step "build library" cmake --build "$BUILD" --target mcpxx -j2
step "install" cmake --install "$BUILD" --prefix "$PREFIX"
# The licence is installed with the package, unchanged.
if ! cmp -s "$ROOT/LICENSE" "$PREFIX/share/doc/mcpxx/LICENSE" >>"$LOG" 2>&1; then
    echo "$PREFIX/share/doc/mcpxx/LICENSE is missing or differs from $ROOT/LICENSE" >>"$LOG"
    fail "LICENSE not installed"
fi
step "configure consumer" cmake -S "$HERE" -B "$CBUILD" "${generator[@]}" "${launcher[@]}" "${compiler[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PREFIX" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
# The package must come from the scratch prefix, not from anything installed on the machine.
found=$(sed -n 's/^mcpxx_DIR:[A-Z]*=//p' "$CBUILD/CMakeCache.txt" | head -n1)
case "$found" in
"$PREFIX"/*) ;;
*) echo "mcpxx_DIR=$found is not under $PREFIX" >>"$LOG"; fail "package found outside the install prefix" ;;
esac
step "build consumer" cmake --build "$CBUILD" -j2
step "run consumer" "$CBUILD/consumer"
echo "PASS: package consumer"
exit 0
