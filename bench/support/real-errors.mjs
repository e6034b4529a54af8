/**
 * Real errors, each produced once by the real library or runtime that throws it in production, for the failure-path
 * benchmarks. Nothing here is hand-built: the network error is what `fetch` throws for a closed port, the timeout is
 * `AbortSignal.timeout`'s DOMException, the Google errors come from gaxios 7 and google-auth-library 10 talking to a
 * local 127.0.0.1 server, the zod error from a real zod 4 parse. No traffic leaves 127.0.0.1.
 */
import { createServer } from 'node:http';
import { Gaxios } from 'gaxios7';
import { OAuth2Client } from 'google-auth-library10';
import { z } from 'zod';

/**
 * @typedef {object} RealErrors Every error kind the failure-path table covers.
 * @property {unknown} toolError `new ToolError(...)`, as a tool throws it.
 * @property {unknown} crash A real `TypeError: Cannot read properties of undefined`, the typical crash.
 * @property {unknown} network `TypeError: fetch failed` with its ECONNREFUSED cause, from `fetch` to a closed 127.0.0.1 port.
 * @property {unknown} timeout The DOMException `TimeoutError` that `AbortSignal.timeout` aborts with.
 * @property {unknown} googleApi A gaxios 7 `GaxiosError` for a 403 PERMISSION_DENIED JSON answer.
 * @property {unknown} oauthRefresh google-auth-library 10's refresh failure: a `GaxiosError` for `invalid_grant` from the token endpoint.
 * @property {unknown} zod A zod 4 `ZodError` from `schema.parse`.
 * @property {unknown} chain16 A 16-deep `cause` chain of plain Errors with a ToolError at the bottom.
 * @property {unknown} chain64 The same, 64 deep.
 */

/** A planted secret that must never come back out (it is in the request, and gaxios errors keep the request). */
export const PLANTED_TOKEN = 'ya29.benchPlantedAccessToken0123456789abcdef';

const PERMISSION_DENIED = {
  error: {
    code: 403,
    message: 'The caller does not have permission',
    status: 'PERMISSION_DENIED',
    errors: [{ message: 'The caller does not have permission', domain: 'global', reason: 'forbidden' }],
  },
};

const INVALID_GRANT = { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' };

/** @param {import('node:http').Server} server @returns {Promise<number>} */
function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port));
  });
}

/** @param {import('node:http').Server} server @returns {Promise<void>} */
function close(server) {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** @returns {Promise<number>} */
async function closedPort() {
  const server = createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

/** @param {() => Promise<unknown>} run @param {string} what */
async function rejection(run, what) {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error(`${what} did not fail`);
}

/** @param {() => unknown} run @param {string} what */
function thrown(run, what) {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error(`${what} did not throw`);
}

/**
 * Produces every error once.
 * @param {new (message: string) => Error} ToolError the class of the build under test
 * @returns {Promise<RealErrors>}
 */
export async function captureRealErrors(ToolError) {
  const server = createServer((req, res) => {
    const body = req.url?.startsWith('/token') === true ? INVALID_GRANT : PERMISSION_DENIED;
    const status = req.url?.startsWith('/token') === true ? 400 : 403;
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body));
    });
  });
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  try {
    const network = await rejection(async () => fetch(`http://127.0.0.1:${await closedPort()}/v1/files?key=AIzaBenchKey0123456789abcdefghij`), 'fetch to a closed port');

    const signal = AbortSignal.timeout(1);
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    const timeout = signal.reason;

    const googleApi = await rejection(
      () =>
        new Gaxios().request({
          url: `${origin}/v1/files/1AbC?fields=id`,
          headers: { Authorization: `Bearer ${PLANTED_TOKEN}` },
          retry: false,
        }),
      'gaxios 7 request answered 403',
    );

    const oauth = new OAuth2Client({
      clientId: 'bench-client.apps.googleusercontent.com',
      clientSecret: 'bench-client-secret',
      endpoints: { oauth2TokenUrl: `${origin}/token` },
    });
    oauth.setCredentials({ refresh_token: '1//benchPlantedRefreshToken0123456789' });
    const oauthRefresh = await rejection(() => oauth.getAccessToken(), 'OAuth2Client refresh answered invalid_grant');

    const zod = thrown(() => z.object({ name: z.string(), count: z.number().int() }).parse({ name: 7, count: 1.5 }), 'zod parse');

    const crash = thrown(() => {
      const config = JSON.parse('{}');
      return config.sheet.id;
    }, 'property read of undefined');

    /** @param {number} depth */
    const chain = (depth) => {
      let error = new ToolError('Sheet name must not be empty');
      for (let layer = 1; layer < depth; layer += 1) error = new Error(`layer ${layer} failed`, { cause: error });
      return error;
    };

    return {
      toolError: new ToolError('Sheet name must not be empty'),
      crash,
      network,
      timeout,
      googleApi,
      oauthRefresh,
      zod,
      chain16: chain(16),
      chain64: chain(64),
    };
  } finally {
    await close(server);
  }
}
