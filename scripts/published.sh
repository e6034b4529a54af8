#!/usr/bin/env bash
# Published servers under the policy, as their maintainers would adopt it (docs/adopting.md, "Tried on published
# servers"): a fresh project installs the reference MCP servers as published on npm (pinned below), the packed tarball
# and the SDK client. Each server's package is copied to adopted/<name>/ and given the one edit docs/adopting.md
# prescribes: `new McpServer(...)` becomes `applyErrorPolicy(new McpServer(...))`, plus the import. The edit fails
# loudly when it does not match exactly once, so a new published version cannot skip it silently.
# test/published/drive.mjs then drives the original and the adopted copy over stdio with a real SDK Client.
set -euo pipefail
. "$(dirname "$0")/packed-project.sh"

memory_version=2026.8.31
filesystem_version=2026.8.31
everything_version=2026.8.31
# The SDK version the three servers resolve to (they depend on ^1.30.0); the client uses it too.
sdk_version=1.32.2

cd "$project"
npm init -y >/dev/null
npm pkg set type=module >/dev/null
npm install --no-audit --no-fund --silent "$tarball" "@modelcontextprotocol/sdk@$sdk_version" \
  "@modelcontextprotocol/server-memory@$memory_version" \
  "@modelcontextprotocol/server-filesystem@$filesystem_version" \
  "@modelcontextprotocol/server-everything@$everything_version"

# adopt <server> <file under the package that constructs the McpServer>
adopt() {
  local name="$1" file="adopted/$1/$2"
  mkdir -p adopted
  cp -R "node_modules/@modelcontextprotocol/$name" "adopted/$name"
  perl -0pi -e '
    $constructed = s/\bnew McpServer\((.*?)\);/applyErrorPolicy(new McpServer($1));/gs;
    $imported = s/^(import \{ McpServer \} from "\@modelcontextprotocol\/sdk\/server\/mcp\.js";)$/$1\nimport { applyErrorPolicy } from "mcp-error-policy";/gm;
    die "published.sh: the edit did not match in $ARGV (new McpServer: $constructed, import: $imported)\n"
      unless $constructed == 1 && $imported == 1;
  ' "$file"
  printf '%s: adopted %s\n' "$name" "$2"
  diff -u "node_modules/@modelcontextprotocol/$name/$2" "$file" || true
}
adopt server-memory dist/index.js
adopt server-filesystem dist/index.js
adopt server-everything dist/server/index.js

cp "$root/test/published/drive.mjs" .
node drive.mjs
