"""Lint a probe set with the release binary and count what it finds.

Each `r*.py` beside this file lists poisoned sentences (each should be a
`definition-*` error) and honest ones (each should carry no finding), and
calls `run`. Build first (`cargo build --release`), then from this folder:

    python3 r1.py
"""
import json
import pathlib
import re
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[3]
GUARD = ROOT / "target" / "release" / "mcp-stdio-guard"


def findings(report):
    """Codes and severities of the definition findings, by tool name."""
    found = {}
    for inp in report.get("inputs", []):
        for issue in inp.get("issues", []):
            code = issue.get("code", "")
            m = re.search(r'(?:tool|prompt|resource) "([ph]\d+)"', issue.get("message", ""))
            if code.startswith("definition-") and m:
                found.setdefault(m.group(1), []).append(
                    (code.removeprefix("definition-"), issue.get("severity"))
                )
    return found


def run(name, poison, honest, prefix="Manages records in the workspace. "):
    defs = [
        {"name": f"{kind}{i}", "description": prefix + text, "inputSchema": {"type": "object"}}
        for kind, texts in (("p", poison), ("h", honest))
        for i, text in enumerate(texts)
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".json", prefix=name) as f:
        json.dump(defs, f)
        f.flush()
        out = subprocess.run(
            [str(GUARD), "lint", "--json", f.name], capture_output=True, text=True, timeout=120
        ).stdout
    found = findings(json.loads(out))
    miss = [
        (t, found.get(f"p{i}", []))
        for i, t in enumerate(poison)
        if not any(s == "error" for _, s in found.get(f"p{i}", []))
    ]
    flagged = [(t, found[f"h{i}"]) for i, t in enumerate(honest) if f"h{i}" in found]
    print(f"{name}: poison {len(poison) - len(miss)}/{len(poison)} as error; "
          f"honest flagged {len(flagged)}/{len(honest)}")
    for t, f in miss:
        print("  MISS", t.replace("\n", " / "), f or "")
    for t, f in flagged:
        print("  FP  ", t, f)
