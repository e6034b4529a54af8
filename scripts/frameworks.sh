#!/usr/bin/env bash
# The frameworks that cannot be installed beside the project's own devDependencies, each in a scratch project
# (.tmp/frameworks/<name>/: its own package.json and node_modules), then their tests (test/frameworks/mcp-framework and
# mastra .test.ts), which run each framework's server from there over stdio (test/frameworks/redirect.mjs) with
# FRAMEWORKS_SCRATCH=1 (a missing install fails instead of skipping). Each server file is type-checked against its
# framework first. Network: the npm registry only.
#
#   mcp-framework 0.2.22: wants zod 3 (the project has zod 4); Node 20
#   @mastra/mcp 2.0.0 + @mastra/core 1.71.0: Node >= 22.13 (run under `npx -y node@22`)
#
# The frameworks that install beside the project (fastmcp, mcp-handler, @hono/mcp, agents) are devDependencies and run
# in `npm test`.
# Usage: bash scripts/frameworks.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
node22=(npx -y node@22)

# install <name> <node command...> -- <packages...>
install() {
  local name="$1"; shift
  local runner=()
  while [ "$1" != "--" ]; do runner+=("$1"); shift; done
  shift
  local dir="$root/.tmp/frameworks/$name"
  mkdir -p "$dir"
  printf '{ "name": "scratch-%s", "private": true, "type": "module" }\n' "$name" > "$dir/package.json"
  (cd "$dir" && "${runner[@]}" "$(command -v npm)" install --no-audit --no-fund --loglevel=error "$@")
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
