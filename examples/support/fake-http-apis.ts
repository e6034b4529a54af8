/**
 * Fakes of the GitHub and OpenAI APIs on 127.0.0.1, for trying examples/http-server.ts without accounts: they answer
 * as the real services word their failures (GitHub's `{ message, documentation_url }`, OpenAI's
 * `{ error: { message, type, code } }`, request ids, `retry-after`). No traffic leaves 127.0.0.1.
 *
 *   GitHub  GET /github/repos/<owner>/missing       404 Not Found
 *           GET /github/repos/<owner>/unauthorized  401 Bad credentials
 *           GET /github/repos/<owner>/<repo>        the repository
 *   OpenAI  GET /openai/v1/models/limited           429 rate_limit_exceeded, retry-after: 7
 *           GET /openai/v1/models/<model>           the model
 *
 * It prints the environment examples/http-server.ts needs (fake credentials included), then serves until Ctrl-C:
 *   npx tsx examples/support/fake-http-apis.ts
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const github = /^\/github\/repos\/([^/]+)\/([^/]+)$/.exec(path);
  const openai = /^\/openai\/v1\/models\/([^/]+)$/.exec(path);
  if (github !== null) {
    const [, owner, repo] = github;
    const headers = { 'x-github-request-id': 'C0DE:1A2B:3C4D5E:6F7A8B:65F0A1B2' };
    if (repo === 'missing') send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }, headers);
    else if (repo === 'unauthorized') send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' }, headers);
    else send(res, 200, { full_name: `${owner}/${repo}`, description: 'A fake repository' }, headers);
  } else if (openai !== null) {
    const [, model] = openai;
    const headers = { 'x-request-id': 'req_0123456789abcdef0123456789abcdef' };
    if (model === 'limited') {
      const message = 'Rate limit reached for gpt-4o in organization org-abc on requests per min (RPM): Limit 500, Used 500, Requested 1.';
      send(res, 429, { error: { message, type: 'requests', param: null, code: 'rate_limit_exceeded' } }, { ...headers, 'retry-after': '7' });
    } else {
      send(res, 200, { id: model, object: 'model', created: 1715367049, owned_by: 'system' }, headers);
    }
  } else {
    send(res, 404, { message: `No fake route for ${path}` }, {});
  }
});

await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
process.stdout.write(
  [
    `Fake GitHub and OpenAI APIs on ${origin} (Ctrl-C to stop). Environment for examples/http-server.ts:`,
    `  GITHUB_API_URL=${origin}/github`,
    '  GITHUB_TOKEN=ghp_FAKEfakeFAKEfakeFAKEfakeFAKEfake0123',
    `  OPENAI_BASE_URL=${origin}/openai/v1`,
    '  OPENAI_API_KEY=sk-proj-FAKEfakeFAKEfakeFAKEfakeFAKEfake0123456789',
    '',
  ].join('\n'),
);
const stop = (): void => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
