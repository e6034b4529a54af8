/**
 * The HTTP rules against values that are not what they seem: plain errors (never matched), look-alikes missing a
 * part of the shape, throwing getters and revoked Proxies (never a throw into the policy), and bodies that are HTML
 * pages or huge (never shown).
 */
import { describe, expect, it } from 'vitest';
import { classifyError, coreRules, createErrorPolicy } from '../../src/index.js';
import { httpRules } from '../../src/http/index.js';

const policy = createErrorPolicy({ rules: [...httpRules, ...coreRules] });

function octokitShaped(extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error('Not Found - https://docs.github.com/rest'), {
    name: 'HttpError',
    status: 404,
    request: { method: 'GET', url: 'https://api.github.com/repos/o/r', headers: { authorization: 'token ghp_AbCdEf0123456789abcdefGHIJKLMNOPQRSTUV' } },
    response: { url: 'https://api.github.com/repos/o/r', status: 404, headers: {}, data: { message: 'Not Found' } },
    ...extra,
  });
}

describe('httpRules against hostile and look-alike values', () => {
  it('match no plain Error, TypeError or RangeError (createErrorPolicy accepted them without allowCatchAll)', () => {
    for (const error of [new Error('x'), new TypeError('x'), new RangeError('x')]) {
      expect(httpRules.filter((rule) => rule.predicate(error)).map((rule) => rule.name)).toEqual([]);
    }
  });

  it('need the whole shape: an HttpError without a request, an axios look-alike without isAxiosError', () => {
    // not Octokit's without its request: its response's status and headers are the core http-status rule's (status only)
    expect(classifyError(octokitShaped({ request: undefined }), policy)).toMatchObject({ kind: 'anticipated', rule: { name: 'http-status' }, message: 'HTTP request failed with status 404' });
    expect(classifyError(octokitShaped({ request: undefined, response: { status: 404, data: {} } }), policy).kind).toBe('crash');
    const axiosLike = Object.assign(new Error('Request failed with status code 404'), {
      name: 'AxiosError',
      config: { url: 'https://x.test' },
      response: { status: 404, data: {} },
    });
    expect(classifyError(axiosLike, policy).kind).toBe('crash');
    expect(classifyError({ ...axiosLike, isAxiosError: true, name: 'AxiosError', config: {}, response: { status: 404 } }, policy)).toMatchObject({
      kind: 'anticipated',
      rule: { name: 'axios-http-error' },
      message: 'HTTP request failed with 404 Not Found',
    });
  });

  it('never throw: throwing getters and revoked Proxies anywhere in the shape', () => {
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error('getter');
        },
      },
    );
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    for (const hostile of [throwing, revoked.proxy]) {
      for (const error of [
        hostile,
        octokitShaped({ response: hostile }),
        octokitShaped({ request: hostile }),
        octokitShaped({ response: { status: 404, headers: hostile, data: hostile } }),
        Object.defineProperty(Object.create(hostile) as object, 'status', { value: 404 }),
      ]) {
        for (const rule of httpRules) {
          expect(() => rule.predicate(error)).not.toThrow();
        }
        expect(() => classifyError(error, policy)).not.toThrow();
      }
    }
  });

  it('show no HTML page, no raw string body and no 10 MB message', () => {
    const html = classifyError(
      octokitShaped({ status: 403, response: { status: 403, headers: {}, data: '<!DOCTYPE html><html><body><h1>Forbidden</h1></body></html>' } }),
      policy,
    );
    expect(html).toMatchObject({ kind: 'anticipated', message: 'GitHub API GET https://api.github.com/repos/o/r failed with 403 Forbidden: Access denied: the credentials do not allow this request' });
    const huge = classifyError(octokitShaped({ response: { status: 404, headers: {}, data: { message: 'x'.repeat(10_000_000) } } }), policy);
    expect(huge.kind === 'anticipated' ? huge.message.length : 0).toBeLessThan(1000);
    const markup = classifyError(octokitShaped({ response: { status: 404, headers: {}, data: { message: '<html><body>oops</body></html>' } } }), policy);
    expect(markup).toMatchObject({ message: 'GitHub API GET https://api.github.com/repos/o/r failed with 404 Not Found' });
  });

  it('read GitHub’s exhausted primary rate limit (403, x-ratelimit-remaining 0) as a rate limit with a retry delay', () => {
    // The reset is counted from the response's Date header: exactly 120 s, whatever the local clock says.
    const sent = Math.floor(Date.now() / 1000) - 3600;
    const limited = classifyError(
      octokitShaped({
        status: 403,
        response: {
          status: 403,
          headers: { date: new Date(sent * 1000).toUTCString(), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(sent + 120) },
          data: { message: 'API rate limit exceeded for user ID 1.' },
        },
      }),
      policy,
    );
    // Not "Access denied": a rate limit, retryable once the limit resets.
    expect(limited.kind === 'anticipated' ? limited.message : '').toBe('GitHub API GET https://api.github.com/repos/o/r failed with 403 Forbidden: API rate limit exceeded for user ID 1. Retry after 120 s.');
    expect(limited.kind === 'anticipated' ? limited.failure : undefined).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 120_000 });
  });
});

describe('the Stripe, AWS, Notion and Slack rules against look-alikes, hostile values and raw bodies', () => {
  const stripe = (extra: Record<string, unknown> = {}): Error =>
    Object.assign(new Error("No such customer: 'x'"), { type: 'StripeInvalidRequestError', raw: { message: "No such customer: 'x'", code: 'resource_missing' }, statusCode: 404, headers: {}, ...extra });
  const aws = (extra: Record<string, unknown> = {}): Error =>
    Object.assign(new Error('Function not found'), { name: 'ResourceNotFoundException', $fault: 'client', $metadata: { httpStatusCode: 404, requestId: 'r-1' }, ...extra });
  const notion = (extra: Record<string, unknown> = {}): Error =>
    Object.assign(new Error('Could not find page'), { name: 'APIResponseError', code: 'object_not_found', status: 404, headers: {}, body: '{"object":"error","status":404,"code":"object_not_found","message":"Could not find page"}', ...extra });
  const slack = (extra: Record<string, unknown> = {}): Error =>
    Object.assign(new Error('An API error occurred: channel_not_found'), { code: 'slack_webapi_platform_error', data: { ok: false, error: 'channel_not_found' }, ...extra });

  it('recognise the whole shape and nothing less', () => {
    expect(classifyError(stripe(), policy)).toMatchObject({ kind: 'anticipated', rule: { name: 'stripe-http-error' }, message: "Stripe API request failed with 404 Not Found (resource_missing): No such customer: 'x'" });
    expect(classifyError(aws(), policy)).toMatchObject({ kind: 'anticipated', rule: { name: 'aws-http-error' }, message: 'AWS request failed with 404 Not Found (ResourceNotFoundException): Function not found' });
    expect(classifyError(notion(), policy)).toMatchObject({ kind: 'anticipated', rule: { name: 'notion-http-error' }, message: 'Notion API request failed with 404 Not Found (object_not_found): Could not find page' });
    expect(classifyError(slack(), policy)).toMatchObject({ kind: 'anticipated', rule: { name: 'slack-http-error' }, status: 404, message: 'Slack API request failed (channel_not_found)' });
    for (const lookAlike of [
      stripe({ raw: undefined }),
      stripe({ type: 'card_error' }),
      aws({ $fault: 'maybe' }),
      aws({ $metadata: undefined }),
      notion({ headers: undefined }),
      notion({ name: 'Error' }),
      slack({ data: { ok: true, error: 'channel_not_found' } }),
      slack({ code: 'slack_webapi_platform' }),
      // Stripe's answer that was not JSON needs its StripeAPIError type and the parser's SyntaxError.
      stripe({ type: 'StripeAPIError', statusCode: undefined, raw: { message: 'Invalid JSON received from the Stripe API' } }),
      stripe({ type: 'StripeCardError', statusCode: undefined, raw: { exception: new SyntaxError('x') } }),
      // An AWS answer the SDK could not parse: its $response must carry the same status.
      Object.assign(new SyntaxError('Unexpected token'), { $metadata: { httpStatusCode: 502 } }),
      Object.assign(new SyntaxError('Unexpected token'), { $metadata: { httpStatusCode: 502 }, $response: { statusCode: 200 } }),
      Object.assign(new SyntaxError('Unexpected token'), { $metadata: { httpStatusCode: 200 }, $response: { statusCode: 200 } }),
      // Slack's 429 without Retry-After is told by its fixed text, from its start.
      new Error('Retry header did not contain a valid timeout'),
      new Error('Note: Retry header did not contain a valid timeout (url: https://slack.com/api/x, retry-after header: undefined)'),
    ]) {
      expect(httpRules.filter((rule) => rule.predicate(lookAlike)).map((rule) => rule.name)).toEqual([]);
    }
  });

  it('read a proxy’s page where the client kept it: Stripe (no status), AWS (the status in $metadata), Slack’s 429 without Retry-After', () => {
    const stripePage = stripe({ type: 'StripeAPIError', statusCode: undefined, headers: undefined, requestId: 'req_1', raw: { message: 'Invalid JSON received from the Stripe API', exception: new SyntaxError('Unexpected token <') } });
    expect(classifyError(stripePage, policy)).toMatchObject({
      kind: 'anticipated',
      rule: { name: 'stripe-http-error' },
      status: 502,
      message: "Stripe API request failed: The service's answer was not JSON (most likely a proxy's or gateway's error page)",
      failure: { code: 'unavailable', retryable: true },
    });
    const awsPage = Object.assign(new SyntaxError('Unexpected token \'<\', "<!DOCTYPE "... is not valid JSON'), { $metadata: { httpStatusCode: 504, requestId: 'r-2' } });
    Object.defineProperty(awsPage, '$response', { value: { statusCode: 504, headers: { 'retry-after': '12' }, body: '<html>secret page</html>' }, enumerable: false });
    expect(classifyError(awsPage, policy)).toMatchObject({
      kind: 'anticipated',
      rule: { name: 'aws-http-error' },
      status: 504,
      message: 'AWS request failed with 504 Gateway Timeout: The service failed to answer. Retry after 12 s.',
      failure: { code: 'unavailable', retryable: true, retryAfterMs: 12_000 },
    });
    const slack429 = new Error('Retry header did not contain a valid timeout (url: https://slack.com/api/chat.postMessage, retry-after header: undefined)');
    expect(classifyError(slack429, policy)).toMatchObject({ rule: { name: 'slack-http-error' }, status: 429, message: 'Slack API request failed with 429 Too Many Requests', failure: { code: 'rate_limited', retryable: true } });
  });

  it('never throw on throwing getters and revoked Proxies in their shapes', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const throwing = new Proxy({}, { get: () => { throw new Error('getter'); } });
    for (const hostile of [throwing, revoked.proxy]) {
      for (const error of [
        stripe({ raw: hostile }), stripe({ headers: hostile }), stripe({ type: 'StripeConnectionError', statusCode: undefined, detail: hostile }),
        stripe({ type: 'StripeAPIError', statusCode: undefined, raw: { exception: hostile } }),
        aws({ $metadata: hostile }), aws({ $response: hostile }), aws({ $fault: undefined, $response: hostile }), aws({ $fault: undefined, $response: { statusCode: 404, headers: hostile } }),
        notion({ headers: hostile }), notion({ body: hostile }),
        slack({ data: hostile }), slack({ code: 'slack_webapi_http_error', statusCode: 503, headers: hostile, body: hostile }), slack({ code: 'slack_webapi_request_error', original: hostile }),
      ]) {
        for (const rule of httpRules) expect(() => rule.predicate(error)).not.toThrow();
        expect(() => classifyError(error, policy)).not.toThrow();
      }
    }
  });

  it('show no raw body: Notion’s HTML page, Slack’s HTML 502, a Stripe HTML message', () => {
    const page = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';
    expect(classifyError(notion({ name: 'UnknownHTTPResponseError', code: 'notionhq_client_response_error', status: 502, body: page }), policy)).toMatchObject({
      message: 'Notion API request failed with 502 Bad Gateway: The service failed to answer',
    });
    expect(classifyError(notion({ status: 409, body: page }), policy)).toMatchObject({ message: 'Notion API request failed with 409 Conflict (object_not_found)' });
    expect(classifyError(slack({ code: 'slack_webapi_http_error', statusCode: 429, headers: {}, body: page }), policy)).toMatchObject({ message: 'Slack API request failed with 429 Too Many Requests' });
    expect(classifyError(stripe({ statusCode: 409, raw: { message: page, type: 'api_error' } }), policy)).toMatchObject({ message: 'Stripe API request failed with 409 Conflict (api_error)' });
  });
});
