#!/usr/bin/env python3
"""Harvests the benign lint corpus from real servers: installs each server of
testdata/lint/harvest.json and of the census (pinned, from npm or PyPI, with install scripts
disabled) into .lintcorpus/ (ignored by git), starts each with no
credentials through `mcp-stdio-guard batch`, and writes every tool, prompt,
resource and resource template the servers listed (read from the report's
frames) to testdata/lint/benign/servers.jsonl, one definition per line:

    {"source": "npm:@scope/pkg@1.2.3", "kind": "tool", "definition": {...}}

Servers that need a credential to start are skipped (most list their tools
without one). A Python package's command is found from its entry points
when the table gives none. Run with the release binary built:

    python3 scripts/lint-corpus/harvest.py [--jobs N]

Nothing here runs in CI: the harvested file is committed, so the lint bench
and its test read it offline.
"""

import concurrent.futures
import json
import os
import subprocess
import sys
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOME = os.path.join(ROOT, ".lintcorpus")
DATA = os.path.join(HOME, "data")
OUT = os.path.join(ROOT, "testdata", "lint", "benign", "servers.jsonl")
# Commands a venv holds that are not the package's own.
NOT_SERVERS = {"python", "python3", "pip", "pip3", "activate", "normalizer", "httpx", "uvicorn",
               "dotenv", "jsonschema", "markdown-it", "pygmentize", "websockets", "fastapi",
               "typer", "f2py", "tqdm", "distro", "huggingface-cli", "openai", "wheel"}


def run(argv, cwd=None, env=None, timeout=900):
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise RuntimeError(f"{' '.join(argv[:4])} exited {done.returncode}: " + " | ".join(tail))


def python_command(home, package):
    """The package's console script: the one named like it, else one with mcp in its name."""
    bindir = os.path.join(home, "bin")
    names = sorted(n for n in os.listdir(bindir)
                   if not n.startswith(("python", "pip", "activate")) and n not in NOT_SERVERS)
    want = package.lower().replace("_", "-")
    for pick in ([n for n in names if n.lower() == want],
                 [n for n in names if "mcp" in n.lower()],
                 names):
        if pick:
            return os.path.join(bindir, pick[0])
    return None


def install(server):
    version = server["version"]
    env = dict(os.environ, PUPPETEER_SKIP_DOWNLOAD="1", PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD="1")
    if "npm" in server:
        spec = f"{server['npm']}@{version}"
        home = os.path.join(HOME, "npm", server["name"])
    else:
        spec = f"{server['pypi']}=={version}"
        home = os.path.join(HOME, "py", server["name"])
    marker = os.path.join(home, ".installed")
    recipe = spec if "npm" in server else spec + " with mcp<2 when it allows"
    if not (os.path.exists(marker) and open(marker).read() == recipe):
        os.makedirs(home, exist_ok=True)
        if "npm" in server:
            with open(os.path.join(home, "package.json"), "w") as f:
                json.dump({"name": "lintcorpus-server", "private": True}, f)
            run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--ignore-scripts",
                 "--save-exact", spec], cwd=home, env=env)
        else:
            venv.create(home, with_pip=True)
            pip = [os.path.join(home, "bin", "python"), "-m", "pip", "install", "--quiet",
                   "--disable-pip-version-check", "--prefer-binary", spec]
            # Servers published without an upper bound on mcp predate 2.x,
            # which renamed FastMCP: give them the SDK they were written for.
            try:
                run(pip + ["mcp<2"], env=env)
            except RuntimeError:
                run(pip, env=env)
        with open(marker, "w") as f:
            f.write(recipe)
    if "npm" in server:
        command = os.path.join(home, "node_modules", ".bin", server["bin"])
    elif server.get("bin"):
        command = os.path.join(home, "bin", server["bin"])
    else:
        command = python_command(home, server["pypi"])
    if not command or not os.path.exists(command):
        raise RuntimeError(f"{spec} installed no command")
    return spec, command


LISTS = {"tools": "tool", "prompts": "prompt", "resources": "resource",
         "resourceTemplates": "resource template"}


def definitions(report):
    """Every definition the report's frames carry, by kind."""
    for frame in report.get("frames") or []:
        result = frame.get("result") if isinstance(frame, dict) else None
        if not isinstance(result, dict):
            continue
        for key, kind in LISTS.items():
            for item in result.get(key) or []:
                if isinstance(item, dict):
                    yield kind, item


def batch(manifest, out, jobs):
    """Runs `batch` over the manifest's servers: each one's report, by name."""
    guard = os.path.join(ROOT, "target", "release", "mcp-stdio-guard")
    path = os.path.join(HOME, out)
    with open(os.path.join(HOME, "manifest-" + out + ".json"), "w") as f:
        json.dump({"mcpServers": dict(sorted(manifest.items()))}, f, indent=1)
    subprocess.run([guard, "batch", f.name, "--jobs", str(jobs), "--out", path, "--",
                    "--timeout", "15000", "--era", "legacy"],
                   stdout=subprocess.DEVNULL, timeout=3600)
    reports = {}
    for line in open(path):
        report = json.loads(line)
        reports[report["batch"]["entry"]] = report
    return reports


def main():
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 4
    servers = json.load(open(os.path.join(ROOT, "testdata", "lint", "harvest.json")))["servers"]
    # The census servers too, pointed at data of their own.
    servers += json.load(open(os.path.join(ROOT, "testdata", "census", "servers.json")))["servers"]
    os.makedirs(os.path.join(DATA, "arxiv"), exist_ok=True)
    os.makedirs(os.path.join(DATA, "repo"), exist_ok=True)
    if not os.path.isdir(os.path.join(DATA, "repo", ".git")):
        run(["git", "init", "-q", os.path.join(DATA, "repo")])
    manifest, specs = {}, {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(install, s): s for s in servers}
        for future in concurrent.futures.as_completed(futures):
            s = futures[future]
            try:
                spec, command = future.result()
            except Exception as e:
                print(f"harvest: {s['name']}: {e}", file=sys.stderr)
                continue
            fill = lambda text: text.replace("{root}", DATA)
            manifest[s["name"]] = {"command": command, "args": [fill(a) for a in s.get("args", [])],
                                   "env": {k: fill(v) for k, v in s.get("env", {}).items()},
                                   "cwd": DATA}
            specs[s["name"]] = ("npm:" if "npm" in s else "pypi:") + spec
    reports = batch(manifest, "results.jsonl", jobs)
    # A server that exited asking for a variable gets a placeholder and
    # one more try: most list their tools before they use a key.
    retry = {}
    for name, report in reports.items():
        if any(True for _ in definitions(report)):
            continue
        wanted = sorted({v for i in report.get("issues", []) for v in i.get("variables") or []})
        if wanted:
            entry = dict(manifest[name])
            entry["env"] = dict(entry.get("env", {}), **{v: "placeholder-for-lint-corpus" for v in wanted})
            retry[name] = entry
    if retry:
        reports.update(batch(retry, "retry.jsonl", jobs))
    lines, seen, listed = [], set(), 0
    for report in reports.values():
        source = specs.get(report["batch"]["entry"])
        count = 0
        for kind, item in definitions(report):
            text = json.dumps(item, sort_keys=True, ensure_ascii=False)
            if (kind, text) in seen:
                continue
            seen.add((kind, text))
            count += 1
            lines.append(json.dumps({"source": source, "kind": kind, "definition": item},
                                    ensure_ascii=False))
        listed += count > 0
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        for line in sorted(lines):
            f.write(line + "\n")
    print(f"harvest: {len(lines)} definitions from {listed} of {len(servers)} servers -> {OUT}")


if __name__ == "__main__":
    main()
