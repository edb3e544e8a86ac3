#!/usr/bin/python3
"""The Python side of tests/unit/schema_differential_test.cpp.

Reads cases.json (groups of one schema and several instances, each group naming its dialect),
asks Python's `jsonschema` for a verdict on every (schema, instance) case and prints one JSON
object on stdout:

    {"jsonschema": "4.10.3", "python": "3.11.2", "verdicts": {"<group>/<test>": true | false | "error: ..."}}

No format checker is passed: `format` is an annotation in both drafts unless asked for, which is
also mcpxx's default. The validator class is chosen by the group's "dialect", never by `$schema`,
so a group's dialect and its schema's `$schema` (when present) must agree.

Run it with /usr/bin/python3 (Debian's python3-jsonschema); exit status 2 if the module is missing.
"""
import json
import sys

try:
    import jsonschema
except ImportError as e:  # scripts/install-deps installs python3-jsonschema
    print(f"run_jsonschema.py: cannot import jsonschema ({e}); run scripts/install-deps", file=sys.stderr)
    sys.exit(2)

try:
    from importlib.metadata import version

    JSONSCHEMA_VERSION = version("jsonschema")
except Exception:  # metadata missing: still usable, just unnamed
    JSONSCHEMA_VERSION = "unknown"

VALIDATORS = {
    "2020-12": jsonschema.Draft202012Validator,
    "draft7": jsonschema.Draft7Validator,
}


def verdict(cls, schema, instance):
    # jsonschema raises (TypeError, RefResolutionError, re.error, ...) on some schemas that are
    # valid JSON Schema; report that as a verdict of its own instead of stopping the run.
    try:
        return cls(schema).is_valid(instance)
    except Exception as e:
        return f"error: {type(e).__name__}: {e}"


def main(argv):
    if len(argv) != 2:
        print("usage: run_jsonschema.py cases.json", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    verdicts = {}
    for group in doc["groups"]:
        cls = VALIDATORS[group["dialect"]]
        for test in group["tests"]:
            verdicts[group["id"] + "/" + test["id"]] = verdict(cls, group["schema"], test["instance"])
    out = {
        "jsonschema": JSONSCHEMA_VERSION,
        "python": ".".join(str(p) for p in sys.version_info[:3]),
        "verdicts": verdicts,
    }
    json.dump(out, sys.stdout, ensure_ascii=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
