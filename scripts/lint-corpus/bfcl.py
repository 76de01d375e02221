#!/usr/bin/env python3
"""Adds a published tool list to the benign lint corpus: the function
definitions of the Berkeley Function-Calling Leaderboard (PyPI bfcl-eval,
pinned, Apache-2.0), each written as an MCP tool (name, description,
inputSchema from its parameters) to testdata/lint/benign/bfcl.jsonl, one per
line, deduplicated and sorted.

    python3 scripts/lint-corpus/bfcl.py
"""

import glob
import json
import os
import subprocess
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "testdata", "lint", "benign", "bfcl.jsonl")
SPEC = "bfcl-eval==2026.3.23"


def functions(path):
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line:
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        found = row.get("function") if isinstance(row, dict) else None
        if found is None and isinstance(row, dict) and "name" in row and "description" in row:
            found = [row]
        if isinstance(found, dict):
            found = [found]
        for fn in found or []:
            if isinstance(fn, dict) and isinstance(fn.get("name"), str):
                yield fn


def main():
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["python3", "-m", "pip", "download", "--quiet", "--no-deps", "-d", tmp, SPEC],
                       check=True)
        wheel = glob.glob(os.path.join(tmp, "*.whl"))[0]
        zipfile.ZipFile(wheel).extractall(tmp)
        rows = {}
        for path in sorted(glob.glob(os.path.join(tmp, "bfcl_eval", "data", "**", "*.json"),
                                     recursive=True)):
            if "possible_answer" in path:
                continue
            for fn in functions(path):
                params = fn.get("parameters") or {"type": "object"}
                if isinstance(params, dict) and params.get("type") == "dict":
                    params = dict(params, type="object")
                tool = {"name": fn["name"], "description": fn.get("description", ""),
                        "inputSchema": params}
                text = json.dumps(tool, sort_keys=True, ensure_ascii=False)
                rows[text] = json.dumps({"source": "pypi:" + SPEC, "kind": "tool",
                                         "definition": tool}, ensure_ascii=False)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        for line in sorted(rows.values()):
            f.write(line + "\n")
    print(f"bfcl: {len(rows)} tools -> {OUT}")


if __name__ == "__main__":
    main()
