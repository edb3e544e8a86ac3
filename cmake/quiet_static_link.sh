#!/usr/bin/env bash
# cmake/quiet_static_link.sh LINK_COMMAND... - runs a link command of a fully static program
# (CXX_LINKER_LAUNCHER, see mcpxx_static_program in cmake/static_programs.cmake) and drops from
# its output exactly one understood warning of glibc, with the "in function" line ld prints
# before it:
#
#   warning: Using 'getaddrinfo' | 'gethostbyname' | 'dlopen' in statically linked applications
#   requires at runtime the shared libraries from the glibc version used for linking
#
# Why it is safe to drop for these programs: they are the examples and test servers, run from
# the build tree on the machine that linked them (nothing installs them), so the glibc their
# NSS and dlopen calls meet at run time is the one they were linked with. gethostbyname,
# BIO_lookup_ex's getaddrinfo and dlopen come from objects of libcrypto.a that mcpxx never
# calls (Asio makes the sockets; no OpenSSL engine is loaded); the one getaddrinfo mcpxx calls,
# Asio's resolver in the HTTP client, is never reached for localhost or an IP literal. Why full
# static: an idle stdio server takes 3.2 MiB instead of 4.7 MiB (docs/design.md).
# Every other line, and the link command's exit status, pass through unchanged.
set -uo pipefail
out=$(mktemp "${TMPDIR:-/tmp}/mcpxx-link.XXXXXX")
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
rc=$?
awk '
    # Holds an "in function" line until the next line says whether it belongs to the warning.
    /: in function `.*'"'"':$/ { if (held != "") print held; held = $0; next }
    /warning: Using '"'"'(getaddrinfo|gethostbyname|dlopen)'"'"' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking$/ {
        held = ""; next
    }
    { if (held != "") { print held; held = "" } print }
    END { if (held != "") print held }
' "$out" >&2
exit "$rc"
