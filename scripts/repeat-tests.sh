#!/usr/bin/env bash
# Runs the whole suite (npm test) N times in a row (default 20), stopping at the first failure. Each run's output goes
# to a file under the system temp directory; on a failure that file is kept and named, the others are removed.
# Usage: bash scripts/repeat-tests.sh [N]   (or: npm run test:repeat -- N)
set -uo pipefail
cd "$(dirname "$0")/.."

runs="${1:-20}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [N]  (N a positive integer, default 20; got '$runs')" >&2
  exit 2
fi

logs="$(mktemp -d "${TMPDIR:-/tmp}/mcp-error-policy-repeat.XXXXXX")"
started=$SECONDS
for ((i = 1; i <= runs; i += 1)); do
  log="$logs/run-$i.log"
  run_started=$SECONDS
  if npm test >"$log" 2>&1; then
    printf 'run %d/%d: passed in %ds\n' "$i" "$runs" "$((SECONDS - run_started))"
    rm -f "$log"
  else
    printf 'run %d/%d: FAILED in %ds\n' "$i" "$runs" "$((SECONDS - run_started))"
    grep -E 'FAIL|✗|×|AssertionError|Error:' "$log" | head -n 20 || true
    printf 'repeat-tests: FAILED at run %d of %d after %d passing runs, %ds in all; full output: %s\n' \
      "$i" "$runs" "$((i - 1))" "$((SECONDS - started))" "$log"
    exit 1
  fi
done
rmdir "$logs"
printf 'repeat-tests: %d of %d runs passed in a row, %ds in all (%ds per run on average)\n' \
  "$runs" "$runs" "$((SECONDS - started))" "$(((SECONDS - started) / runs))"
