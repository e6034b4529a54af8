#!/usr/bin/env bash
# Checks the package as it would be published: publint on the package, @arethetypeswrong/cli on the packed tarball.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp
rm -f .tmp/mcp-error-policy-*.tgz
tarball=".tmp/$(npm pack --ignore-scripts --silent --pack-destination .tmp | tail -n 1)"
echo "packed $tarball ($(wc -c < "$tarball") bytes)"
npx publint --strict
# node10 resolution has no subpath exports, so only the node16 and bundler profiles apply to ./google.
npx attw "$tarball" --profile node16
