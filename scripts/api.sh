#!/usr/bin/env bash
# The public surface, held by API Extractor: each entry's built declarations (dist/index.d.cts,
# dist/google/index.d.cts, dist/http/index.d.cts, dist/opentelemetry/index.d.cts, dist/client/index.d.cts,
# dist/nestjs/index.d.cts; run `npm run build` first) against its committed report in etc/.
#   npm run api               fails when the surface differs from etc/*.api.md (CI)
#   npm run api -- --local    rewrites the reports (same as `npm run api:update`); commit them with the change
set -euo pipefail
cd "$(dirname "$0")/.."
for dts in dist/index.d.cts dist/google/index.d.cts dist/http/index.d.cts dist/opentelemetry/index.d.cts dist/client/index.d.cts dist/nestjs/index.d.cts; do
  [ -f "$dts" ] || { echo "api: $dts is missing: run npm run build first" >&2; exit 1; }
done
for config in api-extractor.json api-extractor.google.json api-extractor.http.json api-extractor.opentelemetry.json api-extractor.client.json api-extractor.nestjs.json; do
  npx api-extractor run --config "$config" "$@"
done
