/**
 * The exit gate (src/gate.ts), both sides of each line it draws: what a client text may not carry (a crash's text, an
 * internal host, a source location, an upstream 5xx body in an error's own message), and what stays as written.
 */
import { describe, expect, it } from 'vitest';
import { crashSignOf, gateClientData, gateClientText } from '../src/gate.js';

const own = (error: unknown, shown: (node: unknown) => boolean = () => false) => ({ error, shown });

describe('a text that carries a crash is masked', () => {
  it.each([
    ["Tool execution failed: Cannot read properties of undefined (reading 'id')", 'a runtime error'],
    ["Failed to generate chart: Cannot destructure property 'metadata' of '_a' as it is null.", 'a runtime error'],
    ['Internal error: (response.data.items || []).map is not a function', 'a runtime error'],
    ['rows is not iterable', 'a runtime error'],
    ['client is not defined', 'a runtime error'],
    [`Unexpected token '<', "<!DOCTYPE "... is not valid JSON`, 'a runtime error'],
    ['Unexpected end of JSON input', 'a runtime error'],
    ['Maximum call stack size exceeded', 'a runtime error'],
    ["Cannot access 'config' before initialization", 'a runtime error'],
    ['Converting circular structure to JSON', 'a runtime error'],
    ['Invalid array length', 'a runtime error'],
    ['failed\n    at closeTicket (/srv/app/tickets.js:10:5)', 'a stack frame'],
    ['failed at file:///srv/app/tickets.mjs:3:9', 'a stack frame'],
    ['Traceback (most recent call last): ...', 'a stack frame'],
    ['  File "/srv/app/main.py", line 3, in <module>', 'a stack frame'],
    ['at com.acme.Tickets.close(Tickets.java:42)', 'a stack frame'],
    ['Upstream said <!DOCTYPE html><html><body>oops</body></html>', 'an HTML page'],
    ['<html><head><title>502</title></head></html>', 'an HTML page'],
  ])('%j: %s', (text, sign) => {
    expect(gateClientText(text)).toEqual({ crash: sign });
  });

  it("an error's own message that quotes a cause the policy would not show", () => {
    const cause = new Error('socket hang up on pool 7f3a');
    const error = new Error(`Sync failed: ${cause.message}`, { cause });
    expect(gateClientText(error.message, own(error))).toEqual({ crash: "its cause's message" });
    // the same cause, shown by itself (a rule accepts it): its words may be quoted
    expect(gateClientText(error.message, own(error, (node) => node === cause))).toEqual({ text: error.message });
    // a text a rule built may quote a cause (an API's message): no `of`, no cause check
    expect(gateClientText(error.message)).toEqual({ text: error.message });
    // short causes are words any text may hold
    const short = new Error('Sync failed: timeout', { cause: new Error('timeout') });
    expect(gateClientText(short.message, own(short))).toEqual({ text: short.message });
  });
});

describe('what stays as written', () => {
  it.each([
    'Entity with name foo not found',
    "Sheet 'Q3' has no column 'Total'",
    'Access denied - path outside allowed directories: /tmp/x not in /srv/allowed, /home/me',
    "ENOENT: no such file or directory, open '/tmp/notes/today.md'",
    'Maintenance until 10:30, see line:42 and https://api.github.com:443/repos/o/r',
    'HTTP request failed with status 503.',
    'Cannot reach the billing service; try again later',
    'Read doc://q9 and note://inbox/1 (resource URIs are names, not hosts)',
    'Version 10.2.3 of the API is not supported',
    'Found 500 rows; the limit is 100',
    'The file foo.json:12 is not a source location',
  ])('%j', (text) => {
    expect(gateClientText(text, own(new Error(text)))).toEqual({ text });
  });
});

describe('internal hosts and source locations go, the sentence stays', () => {
  it.each([
    ['Could not reach redis:6379', 'Could not reach [internal host]'],
    ['connect ECONNREFUSED 10.0.0.5:5432 (pool)', 'connect ECONNREFUSED [internal host] (pool)'],
    ['GET http://127.0.0.1:8080/items/42?view=full failed', 'GET /items/42?view=full failed'],
    ['GET http://billing/api/v1 failed', 'GET /api/v1 failed'],
    ['GET https://api.example.com/v1 failed', 'GET https://api.example.com/v1 failed'],
    ['postgres://db.internal:5432/app refused', '/app refused'],
    ['db-primary.int.acme-corp.lan refused', '[internal host] refused'],
    ['reached billing.svc.cluster.local then localhost', 'reached [internal host] then [internal host]'],
    ['metadata at 169.254.169.254 and fe80::1 and ::1 and 192.168.1.20', 'metadata at [internal host] and [internal host] and [internal host] and [internal host]'],
    ['host:127.0.0.1:34423 x-amz-date:20261205T181842Z', 'host:[internal host] x-amz-date:20261205T181842Z'],
    ['Bad row in /srv/ticketd/app/models/ticket.rb:42', 'Bad row in [source]'],
    ['see src/tools.ts:10:5 and C:\\app\\index.js:3', 'see [source] and [source]'],
    ['loaded file:///srv/app/config.json', 'loaded [source]'],
  ])('%j', (text, shown) => {
    expect(gateClientText(text, own(new Error(text)))).toEqual({ text: shown });
    // the same for a text a rule built
    expect(gateClientText(text)).toEqual({ text: shown });
  });
});

describe("an upstream 5xx answer in an error's own message keeps its status and the service's name, never the body", () => {
  it.each([
    [
      'Ticketing API error 500 Internal Server Error on GET http://ticketd.internal/api/tickets/TCK-1: PG::ConnectionBad: could not connect to server at db-primary.int.acme-corp.lan:5432 /srv/ticketd/app/models/ticket.rb:42',
      'Ticketing API error 500 Internal Server Error.',
    ],
    ['Billing returned 502 Bad Gateway: upstream connect error or disconnect/reset before headers', 'Billing returned 502 Bad Gateway.'],
    ['CRM request failed (HTTP 503): {"error":"maintenance","node":"crm-7"}', 'CRM request failed (HTTP 503.'],
    ['status code: 504 - gateway timeout talking to ledger', 'status code: 504 - gateway timeout.'],
  ])('%j', (text, shown) => {
    expect(gateClientText(text, own(new Error(text)))).toEqual({ text: shown });
  });

  it('a 5xx with nothing after it stays; a text a rule built shows what the rule chose', () => {
    expect(gateClientText('Billing returned 502 Bad Gateway.', own(new Error('x')))).toEqual({ text: 'Billing returned 502 Bad Gateway.' });
    const built = 'OpenAI API request failed with 503 Service Unavailable (server_error): The engine is overloaded';
    expect(gateClientText(built)).toEqual({ text: built });
  });
});

describe('protocol error data', () => {
  const scrub = (text: string) => text.replace(/ya29\.\S+/g, '[REDACTED]');

  it('keeps JSON data, its strings scrubbed and without internals', () => {
    expect(gateClientData({ requiredCapabilities: { sampling: {} } }, scrub)).toEqual({ requiredCapabilities: { sampling: {} } });
    expect(gateClientData({ uri: 'sheet://missing', at: '/srv/app/sheets.ts:42', token: 'ya29.secret' }, scrub)).toEqual({ uri: 'sheet://missing', at: '[source]', token: '[REDACTED]' });
  });

  it('drops data that carries a crash, is no JSON or is too long', () => {
    expect(gateClientData({ detail: "Cannot read properties of undefined (reading 'x')" }, scrub)).toBeUndefined();
    expect(gateClientData({ page: '<html><body>500</body></html>' }, scrub)).toBeUndefined();
    expect(gateClientData({ big: 'x'.repeat(9000) }, scrub)).toBeUndefined();
    expect(gateClientData(10n, scrub)).toBeUndefined();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(gateClientData(cyclic, scrub)).toBeUndefined();
  });
});

describe('crashSignOf never throws on hostile causes', () => {
  it('a revoked Proxy and a throwing getter on the chain', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const getter = Object.defineProperty(new Error('outer text'), 'cause', {
      get() {
        throw new Error('boom');
      },
    });
    expect(crashSignOf('outer text', own(Object.assign(new Error('outer'), { cause: proxy })))).toBeUndefined();
    expect(crashSignOf('outer text', own(getter))).toBeUndefined();
  });
});

describe('what the caller sent itself is shown back', () => {
  it('an internal host or a path in the call\'s arguments stays; the same text without them loses it', () => {
    const text = 'Error processing file ftp://[REDACTED]@127.0.0.1/x: see /srv/app/x.rb:3 and redis:6379';
    const sent = (piece: string) => JSON.stringify([{ data: 'ftp://user:hunter2@127.0.0.1/x', at: '/srv/app/x.rb:3' }]).includes(piece);
    expect(gateClientText(text, undefined, sent)).toEqual({ text: 'Error processing file ftp://[REDACTED]@127.0.0.1/x: see /srv/app/x.rb:3 and [internal host]' });
    expect(gateClientText(text)).toEqual({ text: 'Error processing file ftp://[REDACTED]@[internal host]/x: see [source] and [internal host]' });
    // a crash's text is masked whatever the caller sent
    expect(gateClientText("Cannot read properties of undefined (reading 'x')", undefined, () => true)).toEqual({ crash: 'a runtime error' });
  });
});

describe("an upstream's own crash in its 5xx body", () => {
  it('is cut with the body, not taken for a crash of the server', () => {
    const text = "Ticketing API error 500 Internal Server Error: NoMethodError\n/srv/ticketd/app/models/ticket.rb:42:in `history'";
    expect(gateClientText(text, own(new Error(text)))).toEqual({ text: 'Ticketing API error 500 Internal Server Error.' });
    // before the status, a crash's text is the server's own
    const before = "Cannot read properties of undefined (reading 'id') after Ticketing API error 500";
    expect(gateClientText(before, own(new Error(before)))).toEqual({ crash: 'a runtime error' });
  });
});

describe("a handler's protocol error whose data is no JSON", () => {
  it('is answered with its code and text, the data dropped: the wrapper never throws', async () => {
    const { McpError } = await import('@modelcontextprotocol/sdk/types.js');
    const { createErrorPolicy, withClientVisibleResourceErrors } = await import('../src/index.js');
    const read = withClientVisibleResourceErrors(
      () => {
        throw new McpError(-32602, 'Unknown sheet', { n: 10n });
      },
      { policy: createErrorPolicy({ logger: () => undefined }) },
    );
    const call = read as unknown as (uri: URL, variables: object, extra: object) => unknown;
    const answer = (await Promise.resolve(call(new URL('sheet://q3'), {}, { requestId: 1, signal: new AbortController().signal })).catch((e: unknown) => e)) as {
      code?: unknown;
      message?: unknown;
      data?: unknown;
    };
    expect([answer.code, answer.message, answer.data]).toEqual([-32602, 'MCP error -32602: Unknown sheet', undefined]);
  });
});
