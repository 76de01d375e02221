#!/usr/bin/env python3
"""Installs the census servers of testdata/census/servers.json into .census/
(ignored by git), each at its pinned version in a folder of its own (npm
packages with their install scripts disabled) (an npm
prefix or a Python venv), so every server keeps the SDK generation it was
published with. Writes .census/mcp.json, the batch manifest (a client
config's mcpServers map with absolute commands), and .census/data/, the
directories the servers are pointed at (a git repository, a database path).

An install that fails is reported and left out of the manifest; the script
then exits 1 after installing the rest. Run again: what is installed at the
pinned version is kept.

    python3 scripts/setup-census.py [--jobs N]
"""

import concurrent.futures
import json
import os
import subprocess
import sys
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CENSUS = os.path.join(ROOT, ".census")
DATA = os.path.join(CENSUS, "data")


def run(argv, cwd=None, env=None):
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: " + " | ".join(tail))


def install(server):
    name, version = server["name"], server["version"]
    if "npm" in server:
        home = os.path.join(CENSUS, "npm", name)
        command = os.path.join(home, "node_modules", ".bin", server["bin"])
        spec = f"{server['npm']}@{version}"
    else:
        home = os.path.join(CENSUS, "py", name)
        command = os.path.join(home, "bin", server["bin"])
        spec = f"{server['pypi']}=={version}"
    marker = os.path.join(home, ".census-installed")
    # What was installed, and how: a change of either installs again.
    recipe = spec + (" --ignore-scripts" if "npm" in server else "")
    if os.path.exists(marker) and open(marker).read() == recipe and os.path.exists(command):
        return command
    os.makedirs(home, exist_ok=True)
    env = dict(os.environ, PUPPETEER_SKIP_DOWNLOAD="1", PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD="1")
    if "npm" in server:
        with open(os.path.join(home, "package.json"), "w") as f:
            json.dump({"name": f"census-{name}", "private": True}, f)
        run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--ignore-scripts", "--save-exact", spec], cwd=home, env=env)
    else:
        venv.create(home, with_pip=True)
        pip = os.path.join(home, "bin", "python")
        run([pip, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", spec], env=env)
    if not os.path.exists(command):
        raise RuntimeError(f"{spec} installed no {server['bin']}")
    with open(marker, "w") as f:
        f.write(recipe)
    return command


def prepare_data():
    os.makedirs(os.path.join(DATA, "arxiv"), exist_ok=True)
    repo = os.path.join(DATA, "repo")
    if not os.path.isdir(os.path.join(repo, ".git")):
        os.makedirs(repo, exist_ok=True)
        env = dict(os.environ, GIT_AUTHOR_NAME="census", GIT_AUTHOR_EMAIL="census@example.invalid",
                   GIT_COMMITTER_NAME="census", GIT_COMMITTER_EMAIL="census@example.invalid")
        with open(os.path.join(repo, "README"), "w") as f:
            f.write("census repository\n")
        run(["git", "init", "-q"], cwd=repo, env=env)
        run(["git", "add", "README"], cwd=repo, env=env)
        run(["git", "commit", "-q", "-m", "census"], cwd=repo, env=env)


def main():
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 4
    with open(os.path.join(ROOT, "testdata", "census", "servers.json")) as f:
        servers = json.load(f)["servers"]
    os.makedirs(CENSUS, exist_ok=True)
    prepare_data()
    manifest, failed = {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(install, s): s for s in servers}
        for future in concurrent.futures.as_completed(futures):
            s = futures[future]
            try:
                command = future.result()
            except Exception as e:  # one failed install must not stop the rest
                failed.append(s["name"])
                print(f"census: {s['name']}: install failed: {e}", file=sys.stderr)
                continue
            fill = lambda text: text.replace("{root}", DATA)
            entry = {"command": command, "args": [fill(a) for a in s.get("args", [])]}
            if "env" in s:
                entry["env"] = {k: fill(v) for k, v in s["env"].items()}
            manifest[s["name"]] = entry
    ordered = {s["name"]: manifest[s["name"]] for s in servers if s["name"] in manifest}
    with open(os.path.join(CENSUS, "mcp.json"), "w") as f:
        json.dump({"mcpServers": ordered}, f, indent=2)
        f.write("\n")
    print(f"census: {len(ordered)} of {len(servers)} servers installed in .census/; manifest .census/mcp.json")
    if failed:
        print(f"census: failed: {', '.join(sorted(failed))}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
