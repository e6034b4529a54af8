#!/usr/bin/env bash
# Runs the HTTP client rule tests under Node 22, where the openai 7 and ky 2 variants (which skip themselves on
# Node < 22) run for real. The other variants run too.
# Usage: bash scripts/test-http-node22.sh [extra vitest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
export HTTP_TESTS_NODE22=1
# Every client version and the stdio table too (vitest.config.ts).
export TEST_SIZE=full
exec npx -y node@22 node_modules/vitest/vitest.mjs run test/http "$@"
