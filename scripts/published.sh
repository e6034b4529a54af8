#!/usr/bin/env bash
# Published servers under the policy, as their maintainers would adopt it (docs/adopting.md, "Tried on published
# servers"): a fresh project installs the reference MCP servers as published on npm (pinned below), the packed tarball
# and the SDK client. Each McpServer-based server's package is copied twice, each copy under a node_modules folder of
# its own (adopted/node_modules/@modelcontextprotocol/<name>), since that is where npx starts it from, and edited as
# docs/adopting.md prescribes: adopted/ gets the one line (`new McpServer(...)` becomes
# `applyErrorPolicy(new McpServer(...))`, plus the import); adopted-rules/ gets the one line with `ownErrorRule()`, the
# rule adopting.md tells servers whose user-facing failures are plain Errors to add; adopted-report/ gets the one line in
# report mode (`createErrorPolicy({ mode: 'report' })`), adopting.md's first step. An edit fails loudly when it does
# not match exactly once, so a new published version cannot skip it silently.
# test/published/drive.mjs then drives the original and the copies over stdio with a real SDK Client, and prints the
# counts: messages meant for users that were masked, crash texts that reached the client, file-system texts naming a
# path that was not the caller's (each must be 0 under ownErrorRule); and report mode's answers that differ from the
# original's (none may, but for a secret scrubbed).
# The second part does the same for four servers built on the low-level `Server` that call HTTP APIs (Google Maps,
# GitHub, Google Drive, on SDK 1.0.1 each; Notion), against local fakes of those APIs (test/published/apis.mjs).
set -euo pipefail
. "$(dirname "$0")/packed-project.sh"

memory_version=2026.8.31
filesystem_version=2026.8.31
everything_version=2026.8.31
sequential_thinking_version=2026.8.31
# The SDK version the four servers resolve to (they depend on ^1.30.0); the client uses it too.
sdk_version=1.32.2
# Servers on the low-level `Server` that call an HTTP API; each pins SDK 1.0.1, which npm nests under it.
google_maps_version=0.6.2
github_version=2025.4.8
gdrive_version=2025.1.14
# Notion's server: one bundle (the SDK inside), on the low-level `Server`, axios to its API.
notion_version=2.5.2
# What test/published/route.mjs routes through the proxy with: node-fetch (https.globalAgent) and Node's own fetch.
https_proxy_agent_version=9.1.0
undici_version=6.29.1

cd "$project"
npm init -y >/dev/null
npm pkg set type=module >/dev/null
npm install --no-audit --no-fund --silent "$tarball" "@modelcontextprotocol/sdk@$sdk_version" \
  "@modelcontextprotocol/server-memory@$memory_version" \
  "@modelcontextprotocol/server-filesystem@$filesystem_version" \
  "@modelcontextprotocol/server-everything@$everything_version" \
  "@modelcontextprotocol/server-sequential-thinking@$sequential_thinking_version" \
  "@modelcontextprotocol/server-google-maps@$google_maps_version" \
  "@modelcontextprotocol/server-github@$github_version" \
  "@modelcontextprotocol/server-gdrive@$gdrive_version" "@notionhq/notion-mcp-server@$notion_version" \
  "https-proxy-agent@$https_proxy_agent_version" "undici@$undici_version"
# The servers that pin SDK 1.0.1 get it nested; the project (and the package beside them) keeps $sdk_version.
node -e 'const { readFileSync } = require("node:fs");
  const version = (dir) => JSON.parse(readFileSync(`${dir}/node_modules/@modelcontextprotocol/sdk/package.json`, "utf8")).version;
  const [top, ...pinned] = process.argv.slice(1);
  if (version(".") !== top) throw new Error(`the project has SDK ${version(".")}, not ${top}`);
  for (const name of pinned) {
    const nested = version(`node_modules/@modelcontextprotocol/${name}`);
    if (nested !== "1.0.1") throw new Error(`${name} has SDK ${nested}, not 1.0.1`);
  }' "$sdk_version" server-google-maps server-github server-gdrive

# edit <file> <replacement of `new McpServer(<options>)`, with $1 the options> <import line and declarations>
edit() {
  CALL="$2" HEAD="$3" perl -0pi -e '
    $constructed = s/\bnew McpServer\((.*?)\);/my $options = $1; ($ENV{CALL} =~ s{\$1}{$options}r) . ";"/gse;
    $imported = s/^(import \{ McpServer \} from "\@modelcontextprotocol\/sdk\/server\/mcp\.js";)$/$1\n$ENV{HEAD}/gm;
    die "published.sh: the edit did not match in $ARGV (new McpServer: $constructed, import: $imported)\n"
      unless $constructed == 1 && $imported == 1;
  ' "$1"
}

# adopt <server> <file under the package that constructs the McpServer>
# adopted/node_modules/@modelcontextprotocol/<server>: the one line of step 5 (enforce, no rules of its own).
# adopted-rules/node_modules/@modelcontextprotocol/<server>: the one line with ownErrorRule() before the core rules.
# Both sit under a node_modules folder, as npx installs and starts a server; the packages they import (the SDK, this
# package) resolve from the project's node_modules above.
adopt() {
  local name="$1" file="$2" variant
  for variant in adopted adopted-rules adopted-report; do
    mkdir -p "$variant/node_modules/@modelcontextprotocol"
    rm -rf "$variant/node_modules/@modelcontextprotocol/$name"
    cp -R "node_modules/@modelcontextprotocol/$name" "$variant/node_modules/@modelcontextprotocol/$name"
  done
  local one="adopted/node_modules/@modelcontextprotocol/$name/$file" own="adopted-rules/node_modules/@modelcontextprotocol/$name/$file"
  local report="adopted-report/node_modules/@modelcontextprotocol/$name/$file"
  edit "$one" 'applyErrorPolicy(new McpServer($1))' 'import { applyErrorPolicy } from "mcp-error-policy";'
  edit "$own" 'applyErrorPolicy(new McpServer($1), createErrorPolicy({ rules: [ownErrorRule(), ...coreRules] }))' \
    'import { applyErrorPolicy, coreRules, createErrorPolicy, ownErrorRule } from "mcp-error-policy";'
  edit "$report" "applyErrorPolicy(new McpServer(\$1), createErrorPolicy({ mode: 'report' }))" \
    'import { applyErrorPolicy, createErrorPolicy } from "mcp-error-policy";'
  printf '%s: adopted %s\n' "$name" "$file"
  diff -u "node_modules/@modelcontextprotocol/$name/$file" "$one" || true
  diff -u "node_modules/@modelcontextprotocol/$name/$file" "$own" || true
  diff -u "node_modules/@modelcontextprotocol/$name/$file" "$report" || true
}
adopt server-memory dist/index.js
adopt server-filesystem dist/index.js
adopt server-everything dist/server/index.js
adopt server-sequential-thinking dist/index.js

cp "$root/test/published/drive.mjs" "$root/test/published/expect.mjs" "$root/test/published/stdio.mjs" .
node drive.mjs

# ---- Published servers built on the low-level `Server` that call an HTTP API (three pin SDK 1.0.1, which npm nests
# under them beside the SDK above; Notion's bundles its own): test/published/apis.mjs drives them against local fakes of their APIs, through a
# proxy on 127.0.0.1. adopted/<server> gets the one line (`new Server(...)` becomes `applyErrorPolicy(new
# Server(...))`, plus the import); adopted-rules/<server> also gets what docs/adopting.md prescribes for it.

# edit_once <file> <perl substitution>: fails unless it matches exactly once.
edit_once() {
  SUBST="$2" perl -0pi -e '$n = eval "\$_ =~ $ENV{SUBST}"; die "published.sh: $ENV{SUBST} matched ${\($n || 0)} times in $ARGV $@\n" unless $n == 1;' "$1"
}

# adopt_server <package directory under node_modules> <variant> <file> <policy expression or ''> [<lines after the
# import> [<perl substitution>]]
adopt_server() {
  local package="$1" variant="$2" file="$3" policy="$4" head="${5:-}" more="${6:-}"
  local name="${package##*/}" call='applyErrorPolicy(new Server($1))' imports='applyErrorPolicy'
  if [ -n "$policy" ]; then call="applyErrorPolicy(new Server(\$1), $policy)"; imports='applyErrorPolicy, coreRules, createErrorPolicy'; fi
  mkdir -p "$variant"
  rm -rf "${variant:?}/$name"
  cp -R "node_modules/$package" "$variant/$name"
  CALL="$call" HEAD="import { $imports } from \"mcp-error-policy\";${head:+
$head}" perl -0pi -e '
    $constructed = s/\bnew Server\((.*?)\);/my $options = $1; ($ENV{CALL} =~ s{\$1}{$options}r) . ";"/gse;
    $imported = s/^(import \{ Server \} from "\@modelcontextprotocol\/sdk\/server\/index\.js";)$/$1\n$ENV{HEAD}/gm;
    die "published.sh: the edit did not match in $ARGV (new Server: $constructed, import: $imported)\n"
      unless $constructed == 1 && $imported == 1;
  ' "$variant/$name/$file"
  if [ -n "$more" ]; then edit_once "$variant/$name/$file" "$more"; fi
  printf '%s: %s %s\n' "$name" "$variant" "$file"
  diff -u "node_modules/$package/$file" "$variant/$name/$file" || true
}

# Google Maps answers every failure itself, as an isError result with the error's text: the policy sees none of them.
# docs/adopting.md, "A handler that answers its own failures": the catch-all goes.
adopt_server @modelcontextprotocol/server-google-maps adopted dist/index.js ''
adopt_server @modelcontextprotocol/server-google-maps adopted-rules dist/index.js '' '' \
  's/catch \(error\) \{\s*return \{\s*content: \[\{\s*type: "text",\s*text: `Error: \$\{error instanceof Error \? error\.message : String\(error\)\}`\s*\}\],\s*isError: true\s*\};\s*\}/catch (error) {\n        throw error;\n    }/g'
# GitHub: step 4's rule for its GitHubError, which its handler turns into a plain Error (the edit keeps it as the
# cause), and step 3's for its `Repository ... not found` text.
adopt_server @modelcontextprotocol/server-github adopted dist/index.js ''
adopt_server @modelcontextprotocol/server-github adopted-rules dist/index.js \
  "createErrorPolicy({ rules: [userText, ...httpRulesFor({ name: 'github-server', service: 'GitHub API', match: isGitHubError, status: (error) => error.status, body: (error) => error.response }), ...coreRules], reauthorize: 'Check GITHUB_PERSONAL_ACCESS_TOKEN in the server configuration.' })" \
  "import { httpRulesFor } from \"mcp-error-policy/http\";
const USER_TEXT = /^Repository '[^']+' not found\\. Please verify:/;
const userText = { name: 'user-text', predicate: (error) => error instanceof Error && error.constructor === Error && USER_TEXT.test(error.message), level: 'info', status: 404 };" \
  's/throw new Error\(formatGitHubError\(error\)\);/throw new Error(formatGitHubError(error), { cause: error });/g'
# gdrive: the Google rules (docs/google.md) for what googleapis throws.
adopt_server @modelcontextprotocol/server-gdrive adopted dist/index.js ''
adopt_server @modelcontextprotocol/server-gdrive adopted-rules dist/index.js \
  "createErrorPolicy({ rules: [...googleRules, ...coreRules], reauthorize: 'Run the server with the auth argument to sign in again.' })" \
  'import { googleRules } from "mcp-error-policy/google";'

# Notion: the bundle constructs its `Server` under a minified name, in a class whose `server` property it is. The
# second copy lets the catch that answers an HttpClientError as an ordinary result rethrow it, and has step 4's rule
# for it, matched by its name and fields (the bundle exports no class).
notion_new='s/this\.server=(new \w+\(\{name:t,version:"1\.0\.0"\},\{capabilities:\{tools:\{\}\}\}\));/this.server=applyErrorPolicy($1$ENV{POLICY});/g'
notion_import='s/^(import \{ createRequire \} from .module.;)/$ENV{HEAD}\n$1/mg'
for variant in adopted adopted-rules; do
  mkdir -p "$variant"
  rm -rf "$variant/notion-mcp-server"
  cp -R node_modules/@notionhq/notion-mcp-server "$variant/notion-mcp-server"
done
file=adopted/notion-mcp-server/bin/cli.mjs
POLICY='' edit_once "$file" "$notion_new"
HEAD='import { applyErrorPolicy } from "mcp-error-policy";' edit_once "$file" "$notion_import"
file=adopted-rules/notion-mcp-server/bin/cli.mjs
POLICY=", createErrorPolicy({ rules: [...httpRulesFor({ name: 'notion-server', service: 'Notion API', match: (error) => error instanceof Error && error.name === 'HttpClientError' && typeof error.status === 'number', status: (error) => error.status, body: (error) => error.data, headers: (error) => error.headers }), ...coreRules], reauthorize: 'Check NOTION_TOKEN in the server configuration.' })" \
  edit_once "$file" "$notion_new"
HEAD='import { applyErrorPolicy, coreRules, createErrorPolicy } from "mcp-error-policy";
import { httpRulesFor } from "mcp-error-policy/http";' edit_once "$file" "$notion_import"
edit_once "$file" 's/a instanceof Error\?a\.message:"Unknown error"\),a instanceof (\w+)\)\{console\.error\("HttpClientError encountered/a instanceof Error?a.message:"Unknown error"),false)\{console.error("HttpClientError encountered/g'
echo "notion-mcp-server: adopted and adopted-rules bin/cli.mjs (one line each, a bundle)"

cp "$root/test/published/apis.mjs" "$root/test/published/fakes.mjs" "$root/test/published/proxy.mjs" \
  "$root/test/published/route.mjs" .
node apis.mjs
