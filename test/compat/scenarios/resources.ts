/**
 * The resource scenarios of the compatibility table (test/compat/scenarios.ts): one row each, the read callback beside
 * what it must produce (the words of the expectations: ./model.ts). Each is registered at `compat://sheets/<id>` (or
 * under its `template`) and read at its `uri` (default: the same).
 */
import { ResourceError, ResourceNotFoundError, withClientVisibleResourceErrors } from '../../../src/index.js';
import { DEGRADED, GrantRevokedError, mustNotRun, readMissing, readUndefinedY, revokedProxy, SECRET_TOKEN, waitTooLong } from './fixtures.js';
import { answers, degraded, ECONNREFUSED_TEXT, failure, ENOENT_MESSAGE, ENOENT_TEXT, fetchesClosedPort, info, INNER_LOCKED, masked, passes, REFUSED, UNREACHED, REVOKED, REVOKED_TEXT, rethrowsFailureOf, resource, rpc, shows, throws, TIMED_OUT, uriOf, warn, type Scenario } from './model.js';

const RECALCULATING = 'The sheet is being recalculated, try again shortly';

export const resourceScenarios: readonly Scenario[] = [
  resource('resource_not_found', 'deliberate', 'ResourceNotFoundError in a template resource: -32002 with its text',
    () => async (_uri: URL, variables: Record<string, string | string[]>) => {
      throw new ResourceNotFoundError(`No sheet named '${String(variables['sheet'])}'`);
    },
    answers(rpc(-32002, "No sheet named 'Q3'", failure('resource_not_found', false), uriOf('resource_not_found/Q3')), info('ResourceNotFoundError', "No sheet named 'Q3'", 404, 'resource-not-found')),
    { uri: uriOf('resource_not_found/Q3'), template: `${uriOf('resource_not_found')}/{sheet}` }),
  resource('resource_deliberate', 'deliberate', 'ResourceError: -32603 with its text',
    throws(() => new ResourceError(RECALCULATING)), shows(RECALCULATING, failure('resource_error', false), info('ResourceError', RECALCULATING))),
  resource('resource_deliberate_retryable', 'deliberate', 'ResourceError with its own code, retryable without a delay: no retry text',
    throws(() => new ResourceError('The sheet is locked for a moment', { code: 'sheet_locked', retryable: true })),
    shows('The sheet is locked for a moment', failure('sheet_locked', true), info('ResourceError', 'The sheet is locked for a moment'))),
  resource('resource_network', 'allowlisted', 'a real fetch to a closed port inside a resource read',
    fetchesClosedPort, shows(ECONNREFUSED_TEXT, UNREACHED, warn('network', 502, 'TypeError', 'fetch failed', REFUSED))),
  resource('resource_fs', 'allowlisted', 'fs ENOENT inside a resource read', () => readMissing, shows(ENOENT_TEXT, failure('file-system', false), warn('file-system', 500, 'Error', ENOENT_MESSAGE))),
  resource('resource_timeout', 'allowlisted', 'a timed-out wait inside a resource read',
    () => waitTooLong, shows('The operation timed out', failure('timeout', true), warn('timeout', 504, 'AbortError', 'The operation was aborted', TIMED_OUT))),
  resource('resource_crash', 'crash', 'a crash names only the URI and the reference',
    () => async (uri: URL) => ({ contents: [{ uri: uri.href, text: readUndefinedY() }] }), masked('TypeError', "Cannot read properties of undefined (reading 'y')")),
  resource('resource_crash_own_code', 'crash', "a thrown object's own code and data never reach the wire",
    throws(() => Object.assign(new Error('upstream said no'), { code: -32099, data: { token: SECRET_TOKEN } })), masked('Error', 'upstream said no')),
  resource('resource_protocol', 'protocol', 'a protocol error in a resource read passes through with its code',
    throws(({ sdk }) => sdk.protocolError(-32602, 'Range Z0 is invalid')), passes(-32602, 400, 'Range Z0 is invalid')),
  resource('resource_hostile_string', 'hostile', 'a thrown string in a resource read', throws(() => 'boom'), masked('string', 'boom')),
  resource('resource_hostile_revoked_proxy', 'hostile', 'a revoked Proxy in a resource read', throws(() => revokedProxy()), masked('object', '')),
  resource('resource_degraded', 'degraded', 'degraded resource read',
    ({ degradedPolicy }) => withClientVisibleResourceErrors(mustNotRun(), { policy: degradedPolicy }), shows(DEGRADED, failure('auth_required', false), degraded)),
  resource('resource_reauthorize', 'reauthorize', 're-authorization in a resource read',
    throws(() => new GrantRevokedError()), shows(REVOKED_TEXT, failure('grant-revoked', false), warn('grant-revoked', 401, 'GrantRevokedError', REVOKED))),
  resource('resource_nested', 'nested', 'a resource read rethrowing a wrapped tool’s failure text as ResourceError', rethrowsFailureOf('locked', ResourceError),
    shows('Error executing tool inner_locked: Row 7 is locked by another editor', failure('resource_error', false), INNER_LOCKED, info('ResourceError', 'Error executing tool inner_locked: Row 7 is locked by another editor'))),
];
