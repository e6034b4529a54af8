#!/usr/bin/env bash
# The compatibility matrix: the compat table (test/compat/**) and the Google rule tests (test/google/**) on every end of
# every supported range, each cell a separate vitest run.
#
#   Node 20 (local), 22 and 24 (from the npm registry: `npx -y node@22`)
#   @modelcontextprotocol/sdk: the oldest supported 1.x and the latest (the lock file's), each with zod 3.25 and 4; and
#     1.0.1, the peer range's end, with a low-level Server (test/compat/sdk-1.0.1.test.ts)
#   @modelcontextprotocol/server + client: the oldest 2.x and the latest (the lock file's)
#   gaxios 6/7/8, google-auth-library 9/10/11: installed as aliases; test/google runs them (8 and 11 need Node >= 22)
#   @opentelemetry/api: the oldest supported (1.3.0) with the oldest SDK the tests can use beside it, and the newest
#     (1.10.0, Node 22) with the latest 3.x SDK; test/opentelemetry runs on each (1.9.x with SDK 2.12 is the lock file's,
#     run by npm test)
#
# Other versions are installed into scratch directories (.tmp/matrix/<cell>/, each its own package.json and
# node_modules); test/compat/vitest.config.ts (and test/compat/redirect.mjs for subprocesses) makes the tests' imports
# of the SDKs, OpenTelemetry and zod resolve there (src/ included), and test/compat/versions.test.ts and
# otel-versions.test.ts fail unless the versions really loaded are the ones asked for. Network: the npm registry and 127.0.0.1 only.
#
# Usage: bash scripts/matrix.sh [cell-name-substring ...]     (no argument: every cell)
# Exit status: 0 when every cell passed; 1 otherwise. A summary table is printed at the end.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# The supported range's ends. Keep in step with package.json's peerDependencies and the README.
SDK_OLDEST=1.23.0          # the oldest whose McpServer answers carry every failure object (JSON-RPC error data): the full table
SDK_FLOOR=1.13.0           # the oldest whose McpServer applyErrorPolicy takes (the first with registerResource and registerPrompt)
SDK_OUTPUT_SCHEMA=1.13.2   # the first that sends a failing outputSchema tool's isError answer itself (1.13.0/1.13.1 refuse it: the adapter answers)
SDK_BELOW_FLOOR=1.12.3     # refused by the types and at run time, both naming 1.13.0
SDK_LOWLEVEL_OLDEST=1.0.1  # the peer range's end: a low-level Server with the wrappers, toToolResult, classifyError
SERVER_OLDEST=2.0.0
ZOD3_OLDEST=3.25.1   # zod 3.25.0 was published without its dist/ and cannot be imported
ZOD3_LATEST=3.25.76
ZOD4_OLDEST=4.0.0
OTEL_API_OLDEST=1.3.0
# The oldest OpenTelemetry SDK beside it: sdk-trace-base, core and context-async-hooks 2.0.0 (the tests use 2.x's
# `parentSpanContext` and `spanProcessors`) and exporter-trace-otlp-http 0.200.0 accept api >= 1.3.0. sdk-metrics 2.x
# wants api >= 1.9.0, so metrics come from the 1.x line: 1.21.0, the first with the `readers` option the tests use.
# (The exporter's own dependencies, otlp-transformer's sdk-metrics 2.0.0 and sdk-logs 0.200.0, declare api >= 1.9.0 and
# >= 1.4.0: npm installs them beside api 1.3.0 with an "invalid" peer, as it does for an application with these.)
OTEL_SDK_OLDEST=2.0.0
OTEL_METRICS_OLDEST=1.21.0
OTEL_EXPORTER_OLDEST=0.200.0
# The newest api, 1.10.x, is accepted by the OpenTelemetry JS SDK 3.x only (every 2.x package asks for api < 1.10). 3.x
# needs Node >= 22.15 and has no sdk-trace-base: `@opentelemetry/sdk-trace` (TracerProvider), core, context-async-hooks
# and sdk-metrics 3.1.1 (api >=1.10.0 <1.11.0; context-async-hooks >=1.0.0 <1.11.0), and the exporter of that line,
# exporter-trace-otlp-http 0.301.0 (api ^1.10.0; it depends on the 3.1.0 SDK packages, installed beside it).
# test/opentelemetry/support.ts constructs the providers as the installed line takes them.
OTEL_API_LATEST=1.10.0
OTEL_SDK3=3.1.1
OTEL_EXPORTER3=0.301.0

installed() { node -p "require('./node_modules/$1/package.json').version"; }
SDK_LATEST="$(installed @modelcontextprotocol/sdk)"
SERVER_LATEST="$(installed @modelcontextprotocol/server)"
ZOD_LOCKED="$(installed zod)"

scratch="$root/.tmp/matrix"
logs="$root/.tmp/matrix/logs"
mkdir -p "$scratch" "$logs"
report="$logs/loaded.jsonl"
: > "$report"

export NO_COLOR=1 FORCE_COLOR=0 CI="${CI:-true}"
vitest="node_modules/vitest/vitest.mjs"
compat_v1=(test/compat/versions.test.ts test/compat/table.test.ts test/compat/one-policy.test.ts)
compat_all=(test/compat/versions.test.ts test/compat/table.test.ts test/compat/one-policy.test.ts test/compat/v2.test.ts test/compat/one-policy-v2.test.ts test/compat/types.test.ts)

# Installs exact versions into .tmp/matrix/<name> unless the same set is already there.
prepare() {
  local name="$1"; shift
  local dir="$scratch/$name" wanted="$*"
  if [[ -f "$dir/.installed" && "$(cat "$dir/.installed")" == "$wanted" ]]; then return 0; fi
  rm -rf "$dir" && mkdir -p "$dir"
  printf '{ "name": "matrix-%s", "private": true, "type": "module" }\n' "$name" > "$dir/package.json"
  if (cd "$dir" && npm install --no-audit --no-fund --silent --save-exact "$@") > "$logs/install-$name.log" 2>&1; then
    echo "$wanted" > "$dir/.installed"
  else
    echo "install of $name failed:"; tail -20 "$logs/install-$name.log"; return 1
  fi
}

names=() results=() counts=() times=() details=()
total_passed=0 total_failed=0 failed_cells=0

# run_cell <name> <node major> <deps dir or ""> <what it pins> <env assignments...> -- <test files...>
run_cell() {
  local name="$1" node="$2" deps="$3" what="$4"; shift 4
  local envs=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do envs+=("$1"); shift; done
  shift
  if [[ ${#filters[@]} -gt 0 ]]; then
    local keep=0 f
    for f in "${filters[@]}"; do [[ "$name" == *"$f"* ]] && keep=1; done
    [[ $keep -eq 1 ]] || return 0
  fi
  local runner=(node)
  [[ "$node" != 20 ]] && runner=(npx -y "node@$node")
  local log="$logs/$name.log" start=$SECONDS status
  printf '\n=== %s (node %s; %s) ===\n' "$name" "$node" "$what"
  env "${envs[@]}" COMPAT_DEPS="$deps" COMPAT_REPORT="$report" COMPAT_EXPECT_NODE_MAJOR="$node" \
    "${runner[@]}" "$vitest" run --config test/compat/vitest.config.ts "$@" > "$log" 2>&1
  status=$?
  local passed failed
  passed="$(grep -E '^ +Tests ' "$log" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || true)"
  failed="$(grep -E '^ +Tests ' "$log" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+' || true)"
  passed="${passed:-0}" failed="${failed:-0}"
  # A cell that ran no test, or exited non-zero, fails.
  if [[ $status -ne 0 || $passed -eq 0 ]]; then
    results+=("FAIL"); failed_cells=$((failed_cells + 1))
    [[ $failed -eq 0 ]] && failed=1
    echo "--- $name failed (exit $status); the end of $log:"
    tail -60 "$log"
  else
    results+=("pass")
  fi
  grep -E '^ +(Test Files|Tests) ' "$log" || true
  total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed))
  names+=("$name") counts+=("$passed passed, $failed failed") times+=("$((SECONDS - start))s") details+=("$what")
}

filters=("$@")
started=$SECONDS

# ---- scratch installs (skipped when already in place)
prepare "sdk-$SDK_OLDEST-zod-$ZOD3_OLDEST" "@modelcontextprotocol/sdk@$SDK_OLDEST" "zod@$ZOD3_OLDEST" || exit 1
prepare "sdk-$SDK_OLDEST-zod-$ZOD4_OLDEST" "@modelcontextprotocol/sdk@$SDK_OLDEST" "zod@$ZOD4_OLDEST" || exit 1
prepare "sdk-$SDK_LATEST-zod-$ZOD3_LATEST" "@modelcontextprotocol/sdk@$SDK_LATEST" "zod@$ZOD3_LATEST" || exit 1
prepare "sdk-$SDK_LOWLEVEL_OLDEST" "@modelcontextprotocol/sdk@$SDK_LOWLEVEL_OLDEST" || exit 1
prepare "sdk-$SDK_FLOOR" "@modelcontextprotocol/sdk@$SDK_FLOOR" "zod@$ZOD3_LATEST" || exit 1
prepare "sdk-$SDK_OUTPUT_SCHEMA" "@modelcontextprotocol/sdk@$SDK_OUTPUT_SCHEMA" "zod@$ZOD3_LATEST" || exit 1
prepare "sdk-$SDK_BELOW_FLOOR" "@modelcontextprotocol/sdk@$SDK_BELOW_FLOOR" "zod@$ZOD3_LATEST" || exit 1
prepare "server-$SERVER_OLDEST" "@modelcontextprotocol/server@$SERVER_OLDEST" "@modelcontextprotocol/client@$SERVER_OLDEST" || exit 1
prepare "otel-api-$OTEL_API_OLDEST" "@opentelemetry/api@$OTEL_API_OLDEST" "@opentelemetry/sdk-trace-base@$OTEL_SDK_OLDEST" \
  "@opentelemetry/core@$OTEL_SDK_OLDEST" "@opentelemetry/context-async-hooks@$OTEL_SDK_OLDEST" \
  "@opentelemetry/sdk-metrics@$OTEL_METRICS_OLDEST" "@opentelemetry/exporter-trace-otlp-http@$OTEL_EXPORTER_OLDEST" || exit 1
prepare "otel-api-$OTEL_API_LATEST" "@opentelemetry/api@$OTEL_API_LATEST" "@opentelemetry/sdk-trace@$OTEL_SDK3" \
  "@opentelemetry/core@$OTEL_SDK3" "@opentelemetry/context-async-hooks@$OTEL_SDK3" \
  "@opentelemetry/sdk-metrics@$OTEL_SDK3" "@opentelemetry/exporter-trace-otlp-http@$OTEL_EXPORTER3" || exit 1

lock="sdk $SDK_LATEST, server $SERVER_LATEST, zod $ZOD_LOCKED"

# ---- Node 20, 22, 24 on the lock file's versions: the whole compat suite, and the Google rules
run_cell node20-lock 20 "" "$lock" COMPAT_EXPECT_SDK="$SDK_LATEST" COMPAT_EXPECT_ZOD="$ZOD_LOCKED" COMPAT_EXPECT_SERVER="$SERVER_LATEST" -- "${compat_all[@]}"
run_cell node22-lock 22 "" "$lock" COMPAT_EXPECT_SDK="$SDK_LATEST" COMPAT_EXPECT_ZOD="$ZOD_LOCKED" COMPAT_EXPECT_SERVER="$SERVER_LATEST" -- "${compat_all[@]}"
run_cell node24-lock 24 "" "$lock" COMPAT_EXPECT_SDK="$SDK_LATEST" COMPAT_EXPECT_ZOD="$ZOD_LOCKED" COMPAT_EXPECT_SERVER="$SERVER_LATEST" -- "${compat_all[@]}"
run_cell node20-google 20 "" "gaxios 6/7, google-auth-library 9/10 (8/11 skip below Node 22)" -- test/google
run_cell node22-google 22 "" "gaxios 6/7/8, google-auth-library 9/10/11" GOOGLE_TESTS_NODE22=1 -- test/google
run_cell node24-google 24 "" "gaxios 6/7/8, google-auth-library 9/10/11" GOOGLE_TESTS_NODE22=1 -- test/google

# ---- SDK v1 range ends x zod 3.25 / 4
run_cell "sdk-$SDK_OLDEST-zod-$ZOD3_OLDEST" 20 "$scratch/sdk-$SDK_OLDEST-zod-$ZOD3_OLDEST" "sdk $SDK_OLDEST (oldest), zod $ZOD3_OLDEST" \
  COMPAT_EXPECT_SDK="$SDK_OLDEST" COMPAT_EXPECT_ZOD="$ZOD3_OLDEST" -- "${compat_v1[@]}"
run_cell "sdk-$SDK_OLDEST-zod-$ZOD4_OLDEST" 20 "$scratch/sdk-$SDK_OLDEST-zod-$ZOD4_OLDEST" "sdk $SDK_OLDEST (oldest), zod $ZOD4_OLDEST" \
  COMPAT_EXPECT_SDK="$SDK_OLDEST" COMPAT_EXPECT_ZOD="$ZOD4_OLDEST" -- "${compat_v1[@]}"
run_cell "sdk-$SDK_LATEST-zod-$ZOD3_LATEST" 20 "$scratch/sdk-$SDK_LATEST-zod-$ZOD3_LATEST" "sdk $SDK_LATEST (latest), zod $ZOD3_LATEST" \
  COMPAT_EXPECT_SDK="$SDK_LATEST" COMPAT_EXPECT_ZOD="$ZOD3_LATEST" -- "${compat_v1[@]}"
run_cell "sdk-$SDK_OLDEST-node22" 22 "$scratch/sdk-$SDK_OLDEST-zod-$ZOD4_OLDEST" "sdk $SDK_OLDEST (oldest), zod $ZOD4_OLDEST" \
  COMPAT_EXPECT_SDK="$SDK_OLDEST" COMPAT_EXPECT_ZOD="$ZOD4_OLDEST" -- "${compat_v1[@]}"

# ---- the oldest SDK 1.x, pinned by published servers built on the low-level `Server` (no McpServer yet): one focused file
run_cell "sdk-$SDK_FLOOR" 20 "$scratch/sdk-$SDK_FLOOR" "sdk $SDK_FLOOR (the McpServer floor), zod $ZOD3_LATEST" \
  COMPAT_EXPECT_SDK="$SDK_FLOOR" -- test/compat/versions.test.ts test/compat/floor.test.ts
run_cell "sdk-$SDK_OUTPUT_SCHEMA" 20 "$scratch/sdk-$SDK_OUTPUT_SCHEMA" "sdk $SDK_OUTPUT_SCHEMA (outputSchema tools answered by the policy), zod $ZOD3_LATEST" \
  COMPAT_EXPECT_SDK="$SDK_OUTPUT_SCHEMA" -- test/compat/versions.test.ts test/compat/floor.test.ts
run_cell "sdk-$SDK_BELOW_FLOOR" 20 "$scratch/sdk-$SDK_BELOW_FLOOR" "sdk $SDK_BELOW_FLOOR (below the floor: refused)" \
  COMPAT_EXPECT_SDK="$SDK_BELOW_FLOOR" -- test/compat/versions.test.ts test/compat/floor.test.ts
run_cell "sdk-$SDK_LOWLEVEL_OLDEST" 20 "$scratch/sdk-$SDK_LOWLEVEL_OLDEST" "sdk $SDK_LOWLEVEL_OLDEST (oldest, low-level Server), its zod 3" \
  COMPAT_EXPECT_SDK="$SDK_LOWLEVEL_OLDEST" -- test/compat/sdk-1.0.1.test.ts

# ---- SDK v2 range ends (the latest is the lock file's, run above)
run_cell "server-$SERVER_OLDEST" 20 "$scratch/server-$SERVER_OLDEST" "server + client $SERVER_OLDEST (oldest 2.x)" \
  COMPAT_EXPECT_SERVER="$SERVER_OLDEST" -- test/compat/v2.test.ts test/compat/v2-http.test.ts test/compat/one-policy-v2.test.ts

# ---- @opentelemetry/api range ends (1.9.x with SDK 2.x is the lock file's, run by npm test): every OpenTelemetry import of
# the tests, of src/opentelemetry and of the OTLP-over-stdio subprocess resolves from the scratch directory; the MCP
# SDKs and zod fall back to the lock file's
run_cell "otel-api-$OTEL_API_OLDEST" 20 "$scratch/otel-api-$OTEL_API_OLDEST" \
  "api $OTEL_API_OLDEST (oldest), SDK $OTEL_SDK_OLDEST, sdk-metrics $OTEL_METRICS_OLDEST, OTLP exporter $OTEL_EXPORTER_OLDEST" \
  COMPAT_EXPECT_OTEL_API="$OTEL_API_OLDEST" COMPAT_EXPECT_OTEL_TRACE="$OTEL_SDK_OLDEST" COMPAT_EXPECT_OTEL_METRICS="$OTEL_METRICS_OLDEST" \
  COMPAT_EXPECT_OTEL_EXPORTER="$OTEL_EXPORTER_OLDEST" -- test/compat/otel-versions.test.ts test/opentelemetry
# the newest api, with the 3.x SDK (Node 22: 3.x needs >= 22.15)
run_cell "otel-api-$OTEL_API_LATEST" 22 "$scratch/otel-api-$OTEL_API_LATEST" \
  "api $OTEL_API_LATEST (latest), SDK 3.x: sdk-trace, core, context-async-hooks, sdk-metrics $OTEL_SDK3, OTLP exporter $OTEL_EXPORTER3" \
  COMPAT_EXPECT_OTEL_API="$OTEL_API_LATEST" COMPAT_EXPECT_OTEL_TRACE="$OTEL_SDK3" COMPAT_EXPECT_OTEL_METRICS="$OTEL_SDK3" \
  COMPAT_EXPECT_OTEL_EXPORTER="$OTEL_EXPORTER3" -- test/compat/otel-versions.test.ts test/opentelemetry

# ---- summary
printf '\n=== compatibility matrix: %s cells in %ss ===\n' "${#names[@]}" "$((SECONDS - started))"
printf '%-28s %-5s %-26s %-6s %s\n' cell result tests time versions
for i in "${!names[@]}"; do
  printf '%-28s %-5s %-26s %-6s %s\n' "${names[$i]}" "${results[$i]}" "${counts[$i]}" "${times[$i]}" "${details[$i]}"
done
echo
echo "versions really loaded (node, sdk, zod / server), one line per compat run:"
sort -u "$report" | sed 's/^/  /'
echo
echo "matrix: $total_passed passed, $total_failed failed"
[[ ${#names[@]} -gt 0 && $failed_cells -eq 0 ]]
