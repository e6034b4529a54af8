#!/usr/bin/env bash
# Checks the package as it would be published: the packed tarball's size (at most 218 kB), publint on the package,
# @arethetypeswrong/cli on the packed tarball.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp
rm -f .tmp/mcp-error-policy-*.tgz
tarball=".tmp/$(npm pack --ignore-scripts --silent --pack-destination .tmp | tail -n 1)"
bytes=$(wc -c < "$tarball")
echo "packed $tarball ($bytes bytes)"
# The tarball's budget: what a user downloads (dist, docs, examples, README, CHANGELOG, package.json, LICENSE).
# The goal is 200 kB, missed (docs/performance.md#the-tarball: what is in it, and what would meet it at what cost).
# The guard stands a little above today's 215.5 kB so that growth is seen.
max_bytes=218000
if [ "$bytes" -gt "$max_bytes" ]; then
  echo "the packed tarball is $bytes bytes, over its budget of $max_bytes" >&2
  exit 1
fi
npx publint --strict
# Every resolution, node10 included: node10 ignores `exports`, and finds ./google through `typesVersions` in package.json.
npx attw "$tarball" --profile strict
