/**
 * The resource scenarios of the compatibility table (test/compat/scenarios.ts): each read callback beside what it must
 * produce. Each is registered at `compat://sheets/<id>` (or under its `template`) and read at its `uri`.
 */
import { ResourceError, ResourceNotFoundError, withClientVisibleResourceErrors } from '../../../src/index.js';
import { DEGRADED, GrantRevokedError, readMissing, readUndefinedY, revokedProxy, SECRET_TOKEN, waitTooLong } from './fixtures.js';
import { crashed, degraded, ECONNREFUSED_TEXT, failure, INTERNAL, ENOENT_MESSAGE, ENOENT_TEXT, fetchesClosedPort, info, protocol, protocolMessage, protocolName, REFUSED, REVOKED, REVOKED_TEXT, rethrowsFailureOf, rpc, s, throws, TIMED_OUT, uriOf, warn, type Scenario } from './model.js';

export const resourceScenarios: readonly Scenario[] = [
  s({
    id: 'resource_not_found',
    kind: 'resource',
    category: 'deliberate',
    title: 'ResourceNotFoundError in a template resource: -32002 with its text',
    uri: uriOf('resource_not_found/Q3'),
    template: `${uriOf('resource_not_found')}/{sheet}`,
    handler: () => async (_uri: URL, variables: Record<string, string | string[]>) => {
      throw new ResourceNotFoundError(`No sheet named '${String(variables['sheet'])}'`);
    },
    expect: () => ({
      wire: rpc(-32002, "No sheet named 'Q3'", failure('resource_not_found', false), uriOf('resource_not_found/Q3')),
      records: [info('resource', uriOf('resource_not_found/Q3'), 'ResourceNotFoundError', "No sheet named 'Q3'", 404, 'resource-not-found')],
    }),
  }),
  s({
    id: 'resource_deliberate',
    kind: 'resource',
    category: 'deliberate',
    title: 'ResourceError: -32603 with its text',
    uri: uriOf('resource_deliberate'),
    handler: throws(() => new ResourceError('The sheet is being recalculated, try again shortly')),
    expect: () => ({
      wire: rpc(-32603, 'The sheet is being recalculated, try again shortly', failure('resource_error', false)),
      records: [info('resource', uriOf('resource_deliberate'), 'ResourceError', 'The sheet is being recalculated, try again shortly')],
    }),
  }),
  s({
    id: 'resource_deliberate_retryable',
    kind: 'resource',
    category: 'deliberate',
    title: 'ResourceError with its own code, retryable without a delay: no retry text',
    uri: uriOf('resource_deliberate_retryable'),
    handler: throws(() => new ResourceError('The sheet is locked for a moment', { code: 'sheet_locked', retryable: true })),
    expect: () => ({
      wire: rpc(-32603, 'The sheet is locked for a moment', failure('sheet_locked', true)),
      records: [info('resource', uriOf('resource_deliberate_retryable'), 'ResourceError', 'The sheet is locked for a moment')],
    }),
  }),
  s({
    id: 'resource_network',
    kind: 'resource',
    category: 'allowlisted',
    title: 'a real fetch to a closed port inside a resource read',
    uri: uriOf('resource_network'),
    handler: fetchesClosedPort,
    expect: () => ({
      wire: rpc(-32603, ECONNREFUSED_TEXT, failure('network', true)),
      records: [warn('resource', uriOf('resource_network'), 'network', 502, 'TypeError', 'fetch failed', REFUSED)],
    }),
  }),
  s({
    id: 'resource_fs',
    kind: 'resource',
    category: 'allowlisted',
    title: 'fs ENOENT inside a resource read',
    uri: uriOf('resource_fs'),
    handler: () => readMissing,
    expect: () => ({
      wire: rpc(-32603, ENOENT_TEXT, failure('file-system', false)),
      records: [warn('resource', uriOf('resource_fs'), 'file-system', 500, 'Error', ENOENT_MESSAGE)],
    }),
  }),
  s({
    id: 'resource_timeout',
    kind: 'resource',
    category: 'allowlisted',
    title: 'a timed-out wait inside a resource read',
    uri: uriOf('resource_timeout'),
    handler: () => waitTooLong,
    expect: () => ({
      wire: rpc(-32603, 'The operation timed out', failure('timeout', true)),
      records: [warn('resource', uriOf('resource_timeout'), 'timeout', 504, 'AbortError', 'The operation was aborted', TIMED_OUT)],
    }),
  }),
  s({
    id: 'resource_crash',
    kind: 'resource',
    category: 'crash',
    title: 'a crash names only the URI and the reference',
    uri: uriOf('resource_crash'),
    handler: () => async (uri: URL) => ({ contents: [{ uri: uri.href, text: readUndefinedY() }] }),
    expect: () => ({
      wire: rpc(-32603, `Error reading resource ${uriOf('resource_crash')} (reference <ref>)`, INTERNAL),
      records: [crashed('resource', uriOf('resource_crash'), 'TypeError', "Cannot read properties of undefined (reading 'y')")],
    }),
  }),
  s({
    id: 'resource_crash_own_code',
    kind: 'resource',
    category: 'crash',
    title: "a thrown object's own code and data never reach the wire",
    uri: uriOf('resource_crash_own_code'),
    handler: throws(() => Object.assign(new Error('upstream said no'), { code: -32099, data: { token: SECRET_TOKEN } })),
    expect: () => ({
      wire: rpc(-32603, `Error reading resource ${uriOf('resource_crash_own_code')} (reference <ref>)`, INTERNAL),
      records: [crashed('resource', uriOf('resource_crash_own_code'), 'Error', 'upstream said no')],
    }),
  }),
  s({
    id: 'resource_protocol',
    kind: 'resource',
    category: 'protocol',
    title: 'a protocol error in a resource read passes through with its code',
    uri: uriOf('resource_protocol'),
    handler: throws(({ sdk }) => sdk.protocolError(-32602, 'Range Z0 is invalid')),
    expect: (sdk) => ({
      wire: rpc(-32602, protocolMessage(sdk, -32602, 'Range Z0 is invalid')),
      records: [protocol('resource', uriOf('resource_protocol'), -32602, 400, protocolName(sdk), protocolMessage(sdk, -32602, 'Range Z0 is invalid'))],
    }),
  }),
  s({
    id: 'resource_hostile_string',
    kind: 'resource',
    category: 'hostile',
    title: 'a thrown string in a resource read',
    uri: uriOf('resource_hostile_string'),
    handler: throws(() => 'boom'),
    expect: () => ({
      wire: rpc(-32603, `Error reading resource ${uriOf('resource_hostile_string')} (reference <ref>)`, INTERNAL),
      records: [crashed('resource', uriOf('resource_hostile_string'), 'string', 'boom')],
    }),
  }),
  s({
    id: 'resource_hostile_revoked_proxy',
    kind: 'resource',
    category: 'hostile',
    title: 'a revoked Proxy in a resource read',
    uri: uriOf('resource_hostile_revoked_proxy'),
    handler: throws(() => revokedProxy()),
    expect: () => ({
      wire: rpc(-32603, `Error reading resource ${uriOf('resource_hostile_revoked_proxy')} (reference <ref>)`, INTERNAL),
      records: [crashed('resource', uriOf('resource_hostile_revoked_proxy'), 'object', '')],
    }),
  }),
  s({
    id: 'resource_degraded',
    kind: 'resource',
    category: 'degraded',
    title: 'degraded resource read',
    uri: uriOf('resource_degraded'),
    handler: ({ degradedPolicy }) =>
      withClientVisibleResourceErrors(
        async () => {
          throw new Error('the degraded handler must not run');
        },
        { policy: degradedPolicy },
      ),
    expect: () => ({ wire: rpc(-32603, DEGRADED, failure('auth_required', false)), records: [degraded('resource', uriOf('resource_degraded'))] }),
  }),
  s({
    id: 'resource_reauthorize',
    kind: 'resource',
    category: 'reauthorize',
    title: 're-authorization in a resource read',
    uri: uriOf('resource_reauthorize'),
    handler: throws(() => new GrantRevokedError()),
    expect: () => ({
      wire: rpc(-32603, REVOKED_TEXT, failure('grant-revoked', false)),
      records: [warn('resource', uriOf('resource_reauthorize'), 'grant-revoked', 401, 'GrantRevokedError', REVOKED)],
    }),
  }),
  s({
    id: 'resource_nested',
    kind: 'resource',
    category: 'nested',
    title: 'a resource read rethrowing a wrapped tool’s failure text as ResourceError',
    uri: uriOf('resource_nested'),
    handler: rethrowsFailureOf('locked', ResourceError),
    expect: () => ({
      wire: rpc(-32603, 'Error executing tool inner_locked: Row 7 is locked by another editor', failure('resource_error', false)),
      records: [
        info('tool', 'inner_locked', 'ToolError', 'Row 7 is locked by another editor'),
        info('resource', uriOf('resource_nested'), 'ResourceError', 'Error executing tool inner_locked: Row 7 is locked by another editor'),
      ],
    }),
  }),
];
