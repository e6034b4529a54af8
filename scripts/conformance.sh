#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, all its `server` scenarios) against the
# project's conformance server (test/conformance/server.ts) twice: without the policy, then with applyErrorPolicy.
# Both runs must pass the same scenarios (failures listed in test/conformance/baseline.yml are expected in both, as
# SDK limitations), and the policy must be really on in the second run (one crash record for test_error_handling on
# the server's stderr) and off in the first (no record). The suite needs Node >= 22 (fs.globSync): it runs under
# `npx -y node@22`; the server runs on the local Node. Network: the npm registry and 127.0.0.1 only.
#
# Usage: bash scripts/conformance.sh
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

CONFORMANCE_VERSION=0.1.16
work="$root/.tmp/conformance"
suite="$work/node_modules/@modelcontextprotocol/conformance/dist/index.js"
baseline="$root/test/conformance/baseline.yml"
mkdir -p "$work"

if [[ "$(node -p "try { require('$work/node_modules/@modelcontextprotocol/conformance/package.json').version } catch { '' }")" != "$CONFORMANCE_VERSION" ]]; then
  echo "installing @modelcontextprotocol/conformance@$CONFORMANCE_VERSION into $work"
  printf '{ "name": "conformance-runner", "private": true }\n' > "$work/package.json"
  (cd "$work" && npm install --no-audit --no-fund --silent --save-exact "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION") || exit 1
fi

expected=()
if grep -qE '^\s+-\s+\S' "$baseline" 2>/dev/null; then expected=(--expected-failures "$baseline"); fi

server_pid=""
stop_server() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null
    wait "$server_pid" 2>/dev/null
  fi
  server_pid=""
}
trap stop_server EXIT

# run <off|on>: starts the server, runs every server scenario, leaves the summary in $work/summary-<mode>.txt
run() {
  local mode="$1"
  local dir="$work/run-$mode"
  rm -rf "$dir" && mkdir -p "$dir"
  node --import tsx test/conformance/server.ts --policy "$mode" --port 0 > "$dir/server.out" 2> "$dir/server.err" &
  server_pid=$!
  local url="" i
  for i in $(seq 1 300); do
    url="$(grep -oE 'http://127\.0\.0\.1:[0-9]+/mcp' "$dir/server.out" 2>/dev/null | head -1)"
    [[ -n "$url" ]] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if [[ -z "$url" ]]; then
    echo "conformance server (policy $mode) did not start:"; cat "$dir/server.err"; stop_server; return 1
  fi
  echo "=== conformance suite $CONFORMANCE_VERSION, policy $mode: $url ==="
  (cd "$dir" && npx -y node@22 "$suite" server --url "$url" --suite all -o "$dir/results" "${expected[@]}") > "$dir/suite.txt" 2>&1
  local status=$?
  stop_server
  sed -n '/=== SUMMARY ===/,$p' "$dir/suite.txt"
  # Every check of every scenario with its status (SUCCESS / FAILURE / WARNING; INFO records left out), plus the
  # per-scenario summary lines: what must be the same with and without the policy.
  node -e '
    const fs = require("fs"), path = require("path");
    const dir = process.argv[1], out = [];
    for (const entry of fs.readdirSync(dir, { recursive: true })) {
      if (path.basename(entry) !== "checks.json") continue;
      const scenario = path.basename(path.dirname(entry)).replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
      for (const check of JSON.parse(fs.readFileSync(path.join(dir, entry), "utf8"))) {
        if (check.status !== "INFO") out.push(`${scenario} ${check.id} ${check.status}`);
      }
    }
    console.log(out.sort().join("\n"));
  ' "$dir/results" > "$work/checks-$mode.txt"
  grep -E '^[✓✗] ' "$dir/suite.txt" | sort > "$work/summary-$mode.txt"
  cat "$work/summary-$mode.txt" >> "$work/checks-$mode.txt"
  if [[ $status -ne 0 ]]; then echo "the suite exited $status (policy $mode)"; return 1; fi
  if [[ ! -s "$work/summary-$mode.txt" ]]; then echo "no scenario ran (policy $mode)"; tail -40 "$dir/suite.txt"; return 1; fi
}

failed=0
run off || failed=1
run on || failed=1

if [[ $failed -eq 0 ]]; then
  if ! diff -u "$work/checks-off.txt" "$work/checks-on.txt"; then
    echo "the policy changed the conformance results (diff above: - without, + with)"; failed=1
  else
    echo "same results with and without the policy: $(wc -l < "$work/summary-on.txt") scenarios, $(($(wc -l < "$work/checks-on.txt") - $(wc -l < "$work/summary-on.txt"))) checks"
  fi
  # The policy was really on: the one failing tool (test_error_handling) crashed once, logged once; off: no record.
  records_on="$(grep -c '^\[mcp-error-policy\] ' "$work/run-on/server.err" || true)"
  crash_on="$(grep -c '^\[mcp-error-policy\] ERROR tool "test_error_handling" crashed (reference [0-9a-f]\{12\}): Error "This tool intentionally returns an error for testing"$' "$work/run-on/server.err" || true)"
  records_off="$(grep -c '^\[mcp-error-policy\] ' "$work/run-off/server.err" || true)"
  if [[ "$records_on" != 1 || "$crash_on" != 1 || "$records_off" != 0 ]]; then
    echo "expected exactly one policy record with the policy (got $records_on, $crash_on for test_error_handling) and none without (got $records_off)"
    failed=1
  fi
fi

totals="$(grep -hE '^Total: [0-9]+ passed, [0-9]+ failed' "$work"/run-*/suite.txt 2>/dev/null | awk '{p+=$2; f+=$4} END {print p+0, f+0}')"
echo "conformance checks (both runs, expected failures included): ${totals% *} passed, ${totals#* } failed"
[[ $failed -eq 0 ]] && echo "conformance: 2 passed, 0 failed" || echo "conformance: 0 passed, 2 failed"
exit $failed
