#!/usr/bin/env bash
# The package on Bun, Deno and workerd, each installed from the npm registry at a pinned version into a fresh project
# beside the packed tarball, the MCP SDK, zod and @opentelemetry/api (the lock file's versions):
# - Node (the baseline), Bun and Deno run test/runtimes/check.mjs in process: the four entries import (ESM, and
#   `require`), and a real McpServer under applyErrorPolicy, through the real SDK Client in memory, answers a crash
#   (masked, reference), a ToolError (shown), a closed port on 127.0.0.1 and an unknown host under .invalid (network
#   text and failure object) and a missing resource as on Node, one log record each;
# - Node runs it again bundled by esbuild with process.env.NODE_ENV defined as "development": dev mode stays off unless
#   the process's NODE_ENV says so;
# - Deno runs it in a pseudo-terminal without --allow-env (a permission prompt would show there and the call would wait:
#   the run fails on either), then with NODE_ENV=development and --allow-env=NODE_ENV (dev mode on); Bun both ways too;
# - workerd runs test/runtimes/worker.mjs under `wrangler dev` on 127.0.0.1 (wrangler needs Node 22: npx node@22), and
#   test/runtimes/workerd.mjs checks it over Streamable HTTP, without and with nodejs_compat: the same scenarios, the
#   records at the console method of their level, and crashes masked although wrangler wrote NODE_ENV "development"
#   into the bundle;
# - what each runtime's fetch throws (closed port, unknown host, reset connection) is captured again and compared with
#   test/runtimes/shapes.json, which npm test rebuilds on Node: the record cannot drift from the runtimes.
# The unknown host is under .invalid (RFC 6761): the machine's resolver answers it as unknown; no name is looked up
# elsewhere (wrangler's own fetch of its `Request.cf` data is turned off).
# `--update` rewrites shapes.json from the runtimes instead of comparing (review the diff). Fails when anything fails.
set -euo pipefail
BUN=1.4.5
DENO=2.9.6
WRANGLER=4.164.0
update=""
[ "${1:-}" = "--update" ] && update="--update"

. "$(dirname "$0")/packed-project.sh"
version() { node -p "require('./node_modules/$1/package.json').version"; }
sdk="$(version @modelcontextprotocol/sdk)"
zod="$(version zod)"
otel_api="$(version @opentelemetry/api)"
cp test/runtimes/*.mjs test/runtimes/wrangler*.json "$project"
cd "$project"
printf '{ "name": "runtimes", "private": true, "type": "module" }\n' > package.json
echo "installing bun@$BUN, deno@$DENO, wrangler@$WRANGLER (workerd) and the packed tarball"
npm install --no-audit --no-fund --silent --engine-strict=false "$tarball" "@modelcontextprotocol/sdk@$sdk" "zod@$zod" \
  "@opentelemetry/api@$otel_api" "bun@$BUN" "deno@$DENO" "wrangler@$WRANGLER"
bin="$project/node_modules/.bin"
export DENO_DIR="$project/.deno" DENO_NO_UPDATE_CHECK=1 XDG_CONFIG_HOME="$project/.config"
"$bin/bun" --version >/dev/null
"$bin/deno" --version >/dev/null

echo "--- Node $(node --version) (the baseline)"
node check.mjs

echo "--- Node, bundled by esbuild with process.env.NODE_ENV defined as \"development\" (dev mode stays off)"
"$bin/esbuild" check.mjs --bundle --platform=node --format=esm --define:process.env.NODE_ENV='"development"' \
  --outfile=bundled.mjs --log-level=warning
node bundled.mjs
NODE_ENV=development node bundled.mjs --dev

echo "--- Bun $("$bin/bun" --version)"
"$bin/bun" check.mjs
NODE_ENV=development "$bin/bun" check.mjs --dev

echo "--- Deno $DENO, without --allow-env, in a pseudo-terminal (where Deno would prompt)"
deno_run=("$bin/deno" run --allow-net=127.0.0.1,no-such-host.invalid --allow-read)
if command -v script >/dev/null; then
  set +e
  timeout 60 script -qec "$(printf '%q ' "${deno_run[@]}" check.mjs)" /dev/null </dev/null | tr -d '\r' | sed 's/\x1b\[[0-9;]*m//g' >deno.out
  status="${PIPESTATUS[0]}"
  set -e
  cat deno.out
  if grep -q 'requests env access' deno.out; then
    echo "Deno asked for a permission" >&2
    exit 1
  fi
  [ "$status" = 0 ] || { echo "Deno check failed (exit $status; 124: it waited 60 s)" >&2; exit 1; }
else
  echo "(no \`script\` here: without a terminal)"
  "${deno_run[@]}" check.mjs </dev/null
fi
NODE_ENV=development timeout 120 "${deno_run[@]}" --allow-env=NODE_ENV check.mjs --dev </dev/null

echo "--- what each runtime's fetch throws, against test/runtimes/shapes.json"
"$bin/bun" capture.mjs >bun.json
"${deno_run[@]}" capture.mjs </dev/null >deno.json

echo "--- workerd (wrangler $WRANGLER dev, Node 22), without and with nodejs_compat"
for config in wrangler.json wrangler-nodejs-compat.json; do
  shapes="$project/workerd-${config%.json}.json"
  timeout 240 npx -y node@22 workerd.mjs "$shapes" node_modules/wrangler/bin/wrangler.js "$config" || {
    echo "wrangler's output:" >&2
    cat "$shapes.stdout" "$shapes.stderr" >&2 || true
    exit 1
  }
done
cp "$project/workerd-wrangler.json" "$project/workerd.json"

cd "$root"
for runtime in bun deno workerd; do
  node test/runtimes/compare.mjs "$runtime" "$project/$runtime.json" $update
done
node test/runtimes/compare.mjs workerd "$project/workerd-wrangler-nodejs-compat.json"
echo "runtimes: Node, Bun $BUN, Deno $DENO and workerd (wrangler $WRANGLER) passed"
