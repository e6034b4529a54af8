#!/usr/bin/env bash
# The frameworks that cannot be installed beside the project's own devDependencies, each in a scratch project
# (.tmp/frameworks/<name>/: its own package.json and node_modules), then their tests (test/frameworks/mcp-framework and
# mastra .test.ts), which run each framework's server from there over stdio (test/frameworks/redirect.mjs) with
# FRAMEWORKS_SCRATCH=1 (a missing install fails instead of skipping). Each server file is type-checked against its
# framework first. Network: the npm registry only.
#
#   mcp-framework 0.2.22: wants zod 3 (the project has zod 4); Node 20
#   @mastra/mcp 2.0.0 + @mastra/core 1.71.0: Node >= 22.13 (run under `npx -y node@22`)
#   tmcp 1.20.0 (+ @tmcp/transport-stdio, @tmcp/adapter-zod, zod 4; axios and gaxios for its tests): Node 20
#   mcp-use 2.5.2 (+ axios, gaxios for its tools): Node >= 22.22 (run under `npx -y node@22`); its server listens on
#     127.0.0.1 (Streamable HTTP) and test/frameworks/mcp-use.test.ts drives it with the real v1 and v2 clients
#   @rekog/mcp-nest 2.0.5 (+ NestJS 12: @nestjs/common, core, microservices, platform-express; reflect-metadata, rxjs,
#     @modelcontextprotocol/server, core and node; zod, axios, gaxios): Node 20 (>= 20.19: Nest 12 is ESM, which
#     mcp-nest's CommonJS requires). Decorators: the servers (test/frameworks/servers/nest*.ts) are type-checked with
#     experimentalDecorators and run by tsx with tsconfig.run.json (TSX_TSCONFIG_PATH, set by the test), which also
#     maps `mcp-error-policy` (imported by src/nestjs/ by the package's name) to src/index.ts
#
# Two more run the packed package (mcp-error-policy as a user installs it) from a project copied into their scratch
# directory, which they build or bundle themselves:
#
#   xmcp 1.1.3 (+ @xmcp-dev/compiler): test/frameworks/servers/xmcp/ type-checked, built by `xmcp build`, and its
#     stdio server driven by test/frameworks/xmcp.test.ts; Node 20
#   agents (McpAgent, Durable Objects): test/frameworks/servers/mcp-agent/ type-checked, run under `wrangler dev` on
#     workerd (wrangler needs Node 22: `npx -y node@22`) by test/frameworks/mcp-agent.test.ts
#   Nuxt 4.6.4 with @nuxtjs/mcp-toolkit 0.21.0 (+ axios, gaxios for its tools): test/frameworks/servers/nuxt/ built by
#     `nuxt build` (Node 22), then type-checked against the types the build generated (.nuxt/); its built server
#     (.output/server/index.mjs) runs on 127.0.0.1, driven by test/frameworks/nuxt.test.ts over Streamable HTTP
#
# The frameworks that install beside the project (fastmcp, mcp-handler, @hono/mcp, agents) are devDependencies and run
# in `npm test`.
# Usage: bash scripts/frameworks.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
node22=(npx -y node@22)
WRANGLER=4.164.0 # as scripts/runtimes.sh

# scratch <name> <node command...> -- <packages...>: .tmp/frameworks/<name>/, its own package.json and node_modules
scratch() {
  local name="$1"; shift
  local runner=()
  while [ "$1" != "--" ]; do runner+=("$1"); shift; done
  shift
  local dir="$root/.tmp/frameworks/$name"
  mkdir -p "$dir"
  rm -rf "$dir/node_modules/mcp-error-policy" # a tarball packed again under the same name is installed again
  printf '{ "name": "scratch-%s", "private": true, "type": "module" }\n' "$name" > "$dir/package.json"
  (cd "$dir" && "${runner[@]}" "$(command -v npm)" install --no-audit --no-fund --loglevel=error "$@")
}

# install <name> <node command...> -- <packages...>: scratch, then test/frameworks/servers/<name>.ts type-checked
install() {
  scratch "$@"
  local name="$1"
  local dir="$root/.tmp/frameworks/$name"
  # the server file, type-checked against the framework's own types, as a user's project would
  cat > "$dir/tsconfig.json" <<JSON
{
  "extends": "../../../tsconfig.json",
  "compilerOptions": { "module": "ESNext", "moduleResolution": "Bundler", "exactOptionalPropertyTypes": false, "baseUrl": ".", "paths": { "*": ["./node_modules/*"] } },
  "include": ["../../../test/frameworks/servers/$name.ts"],
  "exclude": []
}
JSON
  npx tsc --noEmit -p "$dir/tsconfig.json"
}

printf '\n=== mcp-framework (zod 3), Node 20 ===\n'
install mcp-framework node -- mcp-framework@0.2.22 @modelcontextprotocol/sdk@1.32.2 zod@3.25.76
FRAMEWORKS_SCRATCH=1 node node_modules/vitest/vitest.mjs run test/frameworks/mcp-framework.test.ts

printf '\n=== Mastra (@mastra/mcp 2.0), Node 22 ===\n'
install mastra "${node22[@]}" -- @mastra/mcp@2.0.0 @mastra/core@1.71.0 zod@4.1.13
FRAMEWORKS_SCRATCH=1 "${node22[@]}" node_modules/vitest/vitest.mjs run test/frameworks/mastra.test.ts

printf '\n=== tmcp 1.20 (its own JSON-RPC layer), Node 20 ===\n'
install tmcp node -- tmcp@1.20.0 @tmcp/transport-stdio@0.5.0 @tmcp/adapter-zod@0.1.7 zod@4.1.13 \
  "axios@$(node -p "require('$root/node_modules/axios/package.json').version")" "gaxios@$(node -p "require('$root/node_modules/gaxios/package.json').version")"
FRAMEWORKS_SCRATCH=1 node node_modules/vitest/vitest.mjs run test/frameworks/tmcp.test.ts
# the lock file's versions of what the test servers call (the zod the project has, and the axios and gaxios of its tests)
version() { node -p "require('$root/node_modules/$1/package.json').version"; }

printf '\n=== mcp-use 2.5 (MCPServer, HTTP on 127.0.0.1), Node 22 ===\n'
install mcp-use "${node22[@]}" -- mcp-use@2.5.2 "zod@$(version zod)" "axios@$(version axios)" "gaxios@$(version gaxios)"
FRAMEWORKS_SCRATCH=1 "${node22[@]}" node_modules/vitest/vitest.mjs run test/frameworks/mcp-use.test.ts

printf '\n=== NestJS (@rekog/mcp-nest 2.0, an exception filter; stdio and a hybrid app over HTTP), Node 20 ===\n'
scratch nest node -- @rekog/mcp-nest@2.0.5 @nestjs/common@12.6.3 @nestjs/core@12.6.3 @nestjs/microservices@12.1.1 \
  @nestjs/platform-express@12.6.3 reflect-metadata@0.2.2 rxjs@7.8.2 "@modelcontextprotocol/server@$(version @modelcontextprotocol/server)" \
  "@modelcontextprotocol/core@$(version @modelcontextprotocol/core)" @modelcontextprotocol/node@2.1.2 "zod@$(version zod)" \
  "axios@$(version axios)" "gaxios@$(version gaxios)"
nest="$root/.tmp/frameworks/nest"
# the servers, type-checked against Nest's and mcp-nest's own types, with decorators as a Nest project has them
cat > "$nest/tsconfig.json" <<JSON
{
  "extends": "../../../tsconfig.json",
  "compilerOptions": { "module": "ESNext", "moduleResolution": "Bundler", "exactOptionalPropertyTypes": false, "experimentalDecorators": true, "emitDecoratorMetadata": true, "baseUrl": ".", "paths": { "mcp-error-policy": ["../../../src/index.ts"], "*": ["./node_modules/*"] } },
  "include": ["../../../test/frameworks/servers/nest*.ts"],
  "exclude": []
}
JSON
npx tsc --noEmit -p "$nest/tsconfig.json"
# what tsx runs them with (paths relative to this file)
cat > "$nest/tsconfig.run.json" <<JSON
{
  "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "experimentalDecorators": true, "emitDecoratorMetadata": true, "strict": true, "skipLibCheck": true, "paths": { "mcp-error-policy": ["../../../src/index.ts"] } },
  "include": ["../../../test/frameworks/servers/nest*.ts", "../../../src/**/*.ts"]
}
JSON
FRAMEWORKS_SCRATCH=1 node node_modules/vitest/vitest.mjs run test/frameworks/nest.test.ts

# the packed package ($tarball) and the lock file's versions of what it is installed beside
. "$root/scripts/packed-project.sh"
sdk="$(version @modelcontextprotocol/sdk)"
sdk2="$(version @modelcontextprotocol/server)"
zod="$(version zod)"

# project <name>: copies test/frameworks/servers/<name>/ into the scratch directory and type-checks it there
project() {
  local dir="$root/.tmp/frameworks/$1"
  cp -R "$root/test/frameworks/servers/$1/." "$dir/"
  (cd "$dir" && "$root/node_modules/.bin/tsc" -p tsconfig.json)
}

printf '\n=== xmcp 1.1.3 (xmcp build, the packed package), Node 20 ===\n'
scratch xmcp node -- "$tarball" xmcp@1.1.3 @xmcp-dev/compiler@1.1.3 "@modelcontextprotocol/server@$sdk2" "zod@$zod" \
  "@types/node@$(version @types/node)"
project xmcp
(cd .tmp/frameworks/xmcp && rm -rf dist && CI=true NO_COLOR=1 npx --no-install xmcp build >build.log 2>&1) || { cat .tmp/frameworks/xmcp/build.log; exit 1; }
FRAMEWORKS_SCRATCH=1 node node_modules/vitest/vitest.mjs run test/frameworks/xmcp.test.ts

printf '\n=== agents McpAgent (wrangler %s dev, workerd, Durable Objects), Node 22 ===\n' "$WRANGLER"
scratch mcp-agent node -- --engine-strict=false "$tarball" "agents@$(version agents)" "@modelcontextprotocol/sdk@$sdk" \
  "@modelcontextprotocol/server@$sdk2" "zod@$zod" "wrangler@$WRANGLER"
project mcp-agent
FRAMEWORKS_SCRATCH=1 node node_modules/vitest/vitest.mjs run test/frameworks/mcp-agent.test.ts

printf '\n=== Nuxt 4.6 (@nuxtjs/mcp-toolkit 0.21, nuxt build, the packed package), Node 22 ===\n'
scratch nuxt "${node22[@]}" -- "$tarball" nuxt@4.6.4 @nuxtjs/mcp-toolkit@0.21.0 "@modelcontextprotocol/sdk@$sdk" "zod@$zod" \
  "axios@$(version axios)" "gaxios@$(version gaxios)"
cp -R "$root/test/frameworks/servers/nuxt/." .tmp/frameworks/nuxt/
(cd .tmp/frameworks/nuxt && rm -rf .output && CI=true NO_COLOR=1 "${node22[@]}" node_modules/nuxt/bin/nuxt.mjs build >build.log 2>&1) || { cat .tmp/frameworks/nuxt/build.log; exit 1; }
(cd .tmp/frameworks/nuxt && "$root/node_modules/.bin/tsc" -p tsconfig.json)
FRAMEWORKS_SCRATCH=1 "${node22[@]}" node_modules/vitest/vitest.mjs run test/frameworks/nuxt.test.ts
