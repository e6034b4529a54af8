/**
 * ESM loader hooks for the import probe: records every URL the ESM loader resolves. Asking for the specifier
 * `import-probe:resolved` returns the list so far as a module (no message ports, no timing races).
 */
const resolved = [];

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'import-probe:resolved') {
    return { url: `data:text/javascript,export default ${encodeURIComponent(JSON.stringify(resolved))};`, shortCircuit: true };
  }
  const result = await nextResolve(specifier, context);
  resolved.push(result.url);
  return result;
}
