#!/usr/bin/env bash
# The Python tools the CI-ecosystem tests run, pinned, from PyPI into
# .tools/venv (ignored by git): check-jsonschema validates action.yml
# against GitHub's action metadata schema (vendored in the package: no
# network when it runs) and SARIF against the OASIS 2.1.0 schema;
# pre-commit tries the hook in .pre-commit-hooks.yaml on a throwaway
# repository (`pre-commit try-repo`). Run by .ci/run; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.tools/venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "check-jsonschema==0.39.0" "pre-commit==4.7.0"
"$venv/bin/check-jsonschema" --version
"$venv/bin/pre-commit" --version
