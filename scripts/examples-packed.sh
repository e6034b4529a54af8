#!/usr/bin/env bash
# The shipped examples, run as a user runs them (CI runs this; so can `npm run examples:packed`): a fresh project
# installs the packed tarball, then, from the npm registry, every package the shipped examples' headers name on their
# "Install: npm install ..." lines (tsx among them), each at the version this repository tests: the version of its
# devDependency, or of the alias tsconfig.json maps its name to (gaxios -> gaxios7, @octokit/rest -> octokit-rest22, ...).
# Then test/packed/examples.mjs runs every example in node_modules/mcp-error-policy/examples as its header's "Try:" line
# says and checks what it prints against what the header says.
set -euo pipefail
. "$(dirname "$0")/packed-project.sh"

cd "$project"
npm init -y >/dev/null
npm pkg set type=module >/dev/null
npm install --no-audit --no-fund --silent "$tarball"
examples="node_modules/mcp-error-policy/examples"

# name@version for every package an Install line names (but the package itself), one per line
mapfile -t packages < <(node --input-type=module - "$root" "$examples" <<'EOF'
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
const [root, folder] = process.argv.slice(2);
const paths = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).compilerOptions.paths;
const names = new Set();
for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
  const install = /^ \* Install: npm install (.+)$/m.exec(readFileSync(join(folder, file), 'utf8'));
  if (install === null) throw new Error(`${file}: no "Install: npm install ..." line in its header`);
  for (const name of install[1].trim().split(/\s+/)) if (name !== 'mcp-error-policy') names.add(name);
}
for (const name of [...names].sort()) {
  // the folder the repository installs it in: its own name, or the alias its tsconfig.json path points into
  const installed = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(paths[name]?.[0] ?? '')?.[1] ?? name;
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules', installed, 'package.json'), 'utf8'));
  console.log(`${name}@${version}`);
}
EOF
)
echo "examples: installing ${packages[*]}"
npm install --no-audit --no-fund --silent "${packages[@]}"
cp "$root/test/packed/examples.mjs" .
node examples.mjs "$examples"
