/**
 * readFailure: the failure object of an answer from a server under the policy, read from the wire format alone (a tool
 * result's `_meta`, a JSON-RPC error's `data`, a sign-in in the form of either protocol revision).
 */

/** The key of the failure object in a tool result's `_meta` and in a JSON-RPC error's `data`. */
const FAILURE_KEY = 'mcp-error-policy/failure';
/** MCP's "URL elicitation required" error (2025-11-25). */
const URL_ELICITATION_REQUIRED = -32042;
/** What a code and an id look like on the wire (the server's codes are at most 64 of these characters). */
const CODE = /^[\w.:-]{1,64}$/;
const ID = /^[\w.:-]{1,128}$/;

/** A sign-in the server asks the user for: the page to open and the id of the elicitation. */
export interface SignIn {
  /** The sign-in page (`http:` or `https:`). The caller decides how to show it to the user. */
  readonly url: string;
  /** The elicitation's id: the failure's correlation id (on 2026-07-28, the key of the input request). */
  readonly elicitationId: string;
  /** The server's text for the user. */
  readonly message: string;
}

/** The failure object of one failed call, as the server under `mcp-error-policy` sent it. */
export interface Failure {
  /** Stable, machine-readable code (`network`, `rate_limited`, `internal` for a crash; `sign_in_required` for a sign-in). */
  readonly code: string;
  /** Whether the same call may succeed when made again unchanged. */
  readonly retryable: boolean;
  /** How long to wait before retrying, in milliseconds, when the server knows. */
  readonly retryAfterMs?: number;
  /** `'unreached'`: the request that failed never reached the service the tool calls, so nothing of it ran there. */
  readonly upstream?: 'unreached';
  /** The id of the failure's log record on the server (for a crash, the reference in the text). */
  readonly correlationId: string;
  /** For a sign-in: the page and the elicitation id. Never retryable. */
  readonly signIn?: SignIn;
}

type Fields = Record<string, unknown>;

function fields(value: unknown): Fields | undefined {
  return typeof value === 'object' && value !== null ? (value as Fields) : undefined;
}

/** The failure object under `FAILURE_KEY`, when every field has the type and shape the server sends. */
function failureObject(value: unknown): Failure | undefined {
  const { code, retryable, retryAfterMs, upstream, correlationId } = fields(value) ?? {};
  if (typeof code !== 'string' || !CODE.test(code) || typeof retryable !== 'boolean' || typeof correlationId !== 'string' || !ID.test(correlationId)) {
    return undefined;
  }
  const delay = typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0 ? retryAfterMs : undefined;
  return {
    code,
    retryable,
    ...(delay === undefined ? {} : { retryAfterMs: delay }),
    ...(upstream === 'unreached' ? { upstream } : {}),
    correlationId,
  };
}

/**
 * A sign-in: the -32042 error's first URL elicitation (2025-11-25), or the URL elicitation of an input-required result
 * (2026-07-28), whose key is the id.
 */
function signInFailure(answer: Fields): Failure | undefined {
  let id: unknown;
  let ask: Fields | undefined;
  if (answer.code === URL_ELICITATION_REQUIRED) {
    const elicitations = fields(answer.data)?.elicitations;
    ask = fields(Array.isArray(elicitations) ? elicitations[0] : undefined);
    id = ask?.elicitationId;
  } else if (answer.resultType === 'input_required') {
    for (const [key, request] of Object.entries(fields(answer.inputRequests) ?? {})) {
      if (fields(request)?.method === 'elicitation/create') {
        [id, ask] = [key, fields(fields(request)?.params)];
        break;
      }
    }
  }
  const url = ask?.url;
  const message = ask?.message;
  if (ask?.mode !== 'url' || typeof id !== 'string' || !ID.test(id) || typeof url !== 'string' || !/^https?:\/\//i.test(url)) return undefined;
  const signIn = { url, elicitationId: id, message: typeof message === 'string' ? message : '' };
  return { code: 'sign_in_required', retryable: false, correlationId: id, signIn };
}

function readAnswer(value: unknown): Failure | undefined {
  const answer = fields(value);
  if (answer === undefined) return undefined;
  return signInFailure(answer) ?? failureObject(fields(answer._meta)?.[FAILURE_KEY]) ?? failureObject(fields(answer.data)?.[FAILURE_KEY]);
}

/**
 * Reads the failure object from what a call to a server under `mcp-error-policy` answered: a tool result (its `_meta`),
 * a JSON-RPC error or what an SDK client throws for one (`McpError` of SDK v1, `ProtocolError` of SDK v2: its
 * `data`), a JSON-RPC response message (its `error` or `result`), or a sign-in: the -32042 error of 2025-11-25
 * (`UrlElicitationRequiredError`) or the input-required result of 2026-07-28. Returns a new plain object, or
 * `undefined` for anything else (a success, a failure this package did not answer). Never throws, whatever it is given.
 *
 * @example
 * ```ts
 * const failure = readFailure(await client.callTool({ name: 'search', arguments: { q: 'mcp' } }));
 * if (failure?.retryable) console.log(`may retry after ${failure.retryAfterMs ?? 0} ms`);
 * ```
 */
export function readFailure(answer: unknown): Failure | undefined {
  try {
    const message = fields(answer);
    return readAnswer(answer) ?? readAnswer(message?.error) ?? readAnswer(message?.result);
  } catch {
    return undefined;
  }
}
