#!/usr/bin/env bash
# A user's view: a fresh project installs the packed tarball beside @modelcontextprotocol/sdk and zod, then runs
# test/packed/smoke.mjs against it (ESM and CJS, every entry; @opentelemetry/api, the opentelemetry entry's optional peer, too),
# test/packed/stack.mjs (the shipped JavaScript is readable: a crash's stack names the package's functions as src/ does,
# and no function name is mangled), and type-checks test/packed/types/consumer.ts against the
# packed declarations under every module resolution a user may have: `module: nodenext` (as an ESM and a CJS file),
# `moduleResolution: bundler`, and `moduleResolution: node` (node10, `module: commonjs`; it ignores `exports`, so each
# subpath entry needs its `typesVersions` line in package.json). Then a second fresh project pins
# @modelcontextprotocol/sdk 1.0.1, as published servers built on the low-level `Server` do: the tarball installs beside
# it with no peer conflict (no --legacy-peer-deps) and `npm ls` finds nothing invalid.
set -euo pipefail
. "$(dirname "$0")/packed-project.sh"
pinned="$(mktemp -d)"
trap 'rm -rf "$project" "$pinned"' EXIT
sdk="$(node -p "require('./node_modules/@modelcontextprotocol/sdk/package.json').version")"
zod="$(node -p "require('./node_modules/zod/package.json').version")"
typescript="$(node -p "require('./node_modules/typescript/package.json').version")"
types_node="$(node -p "require('./node_modules/@types/node/package.json').version")"
otel_api="$(node -p "require('./node_modules/@opentelemetry/api/package.json').version")"
cd "$project"
npm init -y >/dev/null
npm pkg set type=module >/dev/null
npm install --no-audit --no-fund --silent "$tarball" "@modelcontextprotocol/sdk@$sdk" "zod@$zod" \
  "typescript@$typescript" "@types/node@$types_node" "@opentelemetry/api@$otel_api"
cp "$root/test/packed/smoke.mjs" "$root/test/packed/stack.mjs" .
node smoke.mjs
node stack.mjs "$root"
cp "$root"/test/packed/types/tsconfig*.json .
cp "$root/test/packed/types/consumer.ts" consumer.mts
cp "$root/test/packed/types/consumer.ts" consumer.cts
cp "$root/test/packed/types/consumer.ts" consumer-node10.ts
npx tsc -p tsconfig.json
npx tsc -p tsconfig.bundler.json
npx tsc -p tsconfig.node10.json
echo "smoke: the packed declarations type-check from ESM and CJS (nodenext), from a bundler and under moduleResolution node (node10)"

cd "$pinned"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent --save-exact "@modelcontextprotocol/sdk@1.0.1"
npm install --no-audit --no-fund --silent "$tarball"
npm ls --all >/dev/null
node --input-type=module -e "
import { createErrorPolicy, toToolResult } from 'mcp-error-policy';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
const sdk = JSON.parse((await import('node:fs')).readFileSync('node_modules/@modelcontextprotocol/sdk/package.json', 'utf8')).version;
if (sdk !== '1.0.1' || typeof Server !== 'function' || toToolResult(new Error('x'), 't', createErrorPolicy({ logger: () => {} })).isError !== true) process.exit(1);
"
echo "smoke: the tarball installs beside a pinned @modelcontextprotocol/sdk 1.0.1 (no peer conflict) and loads with it"
