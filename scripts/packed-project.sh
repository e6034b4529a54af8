# Sourced by the scripts that try the package as a user installs it (smoke-packed.sh, runtimes.sh): builds dist/ when
# missing, packs it into .tmp/, and sets `root` (the repository, the working directory), `tarball` (the packed file)
# and `project` (an empty directory, removed when the script exits).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mkdir -p .tmp
rm -f .tmp/mcp-error-policy-*.tgz
[ -f dist/index.mjs ] || npm run build --silent
tarball="$root/.tmp/$(npm pack --ignore-scripts --silent --pack-destination .tmp | tail -n 1)"
project="$(mktemp -d)"
trap 'rm -rf "$project"' EXIT
