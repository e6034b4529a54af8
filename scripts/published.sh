#!/usr/bin/env bash
# Published servers under the policy, as their maintainers would adopt it (docs/adopting.md, "Tried on published
# servers"): a fresh project installs the reference MCP servers as published on npm (pinned below), the packed tarball
# and the SDK client. Each server's package is copied twice and edited as docs/adopting.md prescribes: adopted/<name>/
# gets the one line (`new McpServer(...)` becomes `applyErrorPolicy(new McpServer(...))`, plus the import);
# adopted-rules/<name>/ also gets step 3's rule for the plain Errors whose texts are meant for users. An edit fails
# loudly when it does not match exactly once, so a new published version cannot skip it silently.
# test/published/drive.mjs then drives the original and both copies over stdio with a real SDK Client.
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

# edit <file> <replacement of `new McpServer(<options>)`, with $1 the options> <import line and declarations>
edit() {
  CALL="$2" HEAD="$3" perl -0pi -e '
    $constructed = s/\bnew McpServer\((.*?)\);/my $options = $1; ($ENV{CALL} =~ s{\$1}{$options}r) . ";"/gse;
    $imported = s/^(import \{ McpServer \} from "\@modelcontextprotocol\/sdk\/server\/mcp\.js";)$/$1\n$ENV{HEAD}/gm;
    die "published.sh: the edit did not match in $ARGV (new McpServer: $constructed, import: $imported)\n"
      unless $constructed == 1 && $imported == 1;
  ' "$1"
}

# adopt <server> <file under the package that constructs the McpServer> <the start of its texts meant for users>
# adopted/<server>: the one line of step 5 (enforce, no rules of its own).
# adopted-rules/<server>: step 3's rule for plain Errors with texts meant for users, by their start.
adopt() {
  local name="$1" file="$2" user_text="$3"
  mkdir -p adopted adopted-rules
  cp -R "node_modules/@modelcontextprotocol/$name" "adopted/$name"
  cp -R "node_modules/@modelcontextprotocol/$name" "adopted-rules/$name"
  edit "adopted/$name/$file" 'applyErrorPolicy(new McpServer($1))' 'import { applyErrorPolicy } from "mcp-error-policy";'
  edit "adopted-rules/$name/$file" 'applyErrorPolicy(new McpServer($1), createErrorPolicy({ rules: [userText, ...coreRules] }))' \
    "import { applyErrorPolicy, coreRules, createErrorPolicy } from \"mcp-error-policy\";
const USER_TEXT = /$user_text/;
const userText = { name: 'user-text', predicate: (error) => error instanceof Error && error.constructor === Error && USER_TEXT.test(error.message), level: 'info', status: 400 };"
  printf '%s: adopted %s\n' "$name" "$file"
  diff -u "node_modules/@modelcontextprotocol/$name/$file" "adopted/$name/$file" || true
  diff -u "node_modules/@modelcontextprotocol/$name/$file" "adopted-rules/$name/$file" || true
}
adopt server-memory dist/index.js '^Entity with name .+ not found$'
adopt server-filesystem dist/index.js '^(?:Cannot specify both head and tail parameters|Could not find exact match for edit)'
adopt server-everything dist/server/index.js '^Invalid resourceId: '

cp "$root/test/published/drive.mjs" .
node drive.mjs
