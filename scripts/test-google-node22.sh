#!/usr/bin/env bash
# Runs the Google rule tests under Node 22, where the gaxios 8 and google-auth-library 11 suites (which skip
# themselves on Node < 22) run for real. The other Google suites (gaxios 6/7, google-auth-library 9/10) run too.
# Usage: bash scripts/test-google-node22.sh [extra vitest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
export GOOGLE_TESTS_NODE22=1
exec npx -y node@22 node_modules/vitest/vitest.mjs run test/google "$@"
