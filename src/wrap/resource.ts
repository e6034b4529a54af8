/**
 * Resources: a failure becomes a JSON-RPC error. Anticipated failures keep their text (ResourceNotFoundError: -32002,
 * others -32603 unless the rule says otherwise); a crash names only the URI and the reference.
 */
import { readProp, readString } from '../kit/read.js';
import { guard } from './guard.js';
import { readWrapOptions, type WrapOptions, type WrappableHandler } from './options.js';
import { rpcShape } from './rpc-error.js';

/**
 * The URI of a resource read: the callback's first argument, a URL (or a string), or, for a low-level `Server`'s
 * request handler, `params.uri` of its `resources/read` request.
 */
function uriFromArgs(args: readonly unknown[]): string | undefined {
  const uri = args[0];
  if (typeof uri === 'string') return uri;
  if (readString(uri, 'method') === 'resources/read') return readString(readProp(uri, 'params'), 'uri');
  return readString(uri, 'href');
}

const resourceShape = rpcShape('resource', uriFromArgs);

/**
 * Wraps a resource read callback, static (`(uri, extra)`) or template (`(uri, variables, extra)`), so that its failures
 * reach the client as the policy decides, each logged once. Same type in and out.
 *
 * @param readCallback - the resource read callback
 * @param options - `policy` (the URI of each call names it in texts and records; `name` is used only when the
 *   URI cannot be read)
 *
 * @example
 * ```ts
 * server.registerResource('sheet', new ResourceTemplate('sheet://{name}', { list: undefined }), {},
 *   withClientVisibleResourceErrors(async (uri, { name }) => {
 *     const sheet = await findSheet(String(name));
 *     if (sheet === undefined) throw new ResourceNotFoundError(`No sheet named ${String(name)}`);
 *     return { contents: [{ uri: uri.href, text: sheet.text }] };
 *   }),
 * );
 * ```
 */
export function withClientVisibleResourceErrors<H extends WrappableHandler>(readCallback: H, options?: WrapOptions): H {
  return guard(readCallback, resourceShape, readWrapOptions(readCallback, options, 'readCallback'));
}
