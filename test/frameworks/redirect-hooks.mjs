// Resolve hook (see redirect.mjs): re-parents the bare imports of test/frameworks/servers/* to $FRAMEWORK_DEPS.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const parent = pathToFileURL(join(process.env.FRAMEWORK_DEPS, 'package.json')).href;
const BARE = /^(?![./]|node:|file:)/;

export async function resolve(specifier, context, nextResolve) {
  if (context.parentURL?.includes('/test/frameworks/servers/') && BARE.test(specifier)) {
    return nextResolve(specifier, { ...context, parentURL: parent });
  }
  return nextResolve(specifier, context);
}
