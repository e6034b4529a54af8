// Resolve hook (see redirect.mjs): re-parents imports of @modelcontextprotocol/*, @opentelemetry/* and zod to
// $COMPAT_DEPS, so that Node resolves them from that directory's node_modules with the usual exports and conditions.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const REDIRECTED = /^(?:@modelcontextprotocol\/(?:sdk|server|client|core)|@opentelemetry\/[^/]+|zod)(?:\/|$)/;
const parent = process.env.COMPAT_DEPS ? pathToFileURL(join(process.env.COMPAT_DEPS, 'package.json')).href : undefined;

export async function resolve(specifier, context, nextResolve) {
  // Only the project's own files are re-parented; packages keep resolving their dependencies as installed.
  const fromProject = context.parentURL !== undefined && !context.parentURL.includes('/node_modules/');
  if (parent !== undefined && fromProject && REDIRECTED.test(specifier)) {
    return nextResolve(specifier, { ...context, parentURL: parent });
  }
  return nextResolve(specifier, context);
}
