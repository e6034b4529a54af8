#!/usr/bin/env bash
# Checks the package as it would be published: publint on the package, @arethetypeswrong/cli on the packed tarball.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp
rm -f .tmp/mcp-error-policy-*.tgz
tarball=".tmp/$(npm pack --ignore-scripts --silent --pack-destination .tmp | tail -n 1)"
echo "packed $tarball ($(wc -c < "$tarball") bytes)"
npx publint --strict
# Every resolution, node10 included: node10 ignores `exports`, and finds ./google through `typesVersions` in package.json.
npx attw "$tarball" --profile strict
