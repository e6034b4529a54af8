// The fakes behind test/published/proxy.mjs, one per API host, answering realistic bodies for the calls
// test/published/apis.mjs drives. The request decides the answer (an address, a repository, a file id), so that each
// call meets the same answer in every variant of a server. `reset` closes the connection without an answer.

const GITHUB_DOCS = 'https://docs.github.com/rest';
const issue = (repo) => ({
  id: 1,
  number: 1,
  title: 'Found a bug',
  state: 'open',
  html_url: `https://github.com/octo/${repo}/issues/1`,
  user: { login: 'octo', id: 1 },
  labels: [],
  body: 'It crashes.',
});

const githubFailures = {
  // GitHub's own bodies and headers for each failure.
  missing: { status: 404, body: { message: 'Not Found', documentation_url: `${GITHUB_DOCS}/issues/issues#get-an-issue`, status: '404' } },
  private: { status: 401, body: { message: 'Bad credentials', documentation_url: GITHUB_DOCS, status: '401' } },
  limited: {
    status: 403,
    headers: { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1893456000', 'x-github-request-id': 'C0DE:1234:5678' },
    body: { message: 'API rate limit exceeded for user ID 1.', documentation_url: `${GITHUB_DOCS}/overview/rate-limits-for-the-rest-api` },
  },
  busy: {
    status: 429,
    headers: { 'retry-after': '7' },
    body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: GITHUB_DOCS },
  },
  broken: { status: 500, body: { message: 'Server Error' } },
};

function github({ method, url }) {
  const [, repos, owner, repo, ...rest] = url.pathname.split('/');
  if (repos !== 'repos' || owner !== 'octo') return githubFailures.missing;
  if (githubFailures[repo] !== undefined) return githubFailures[repo];
  const path = rest.join('/');
  if (method === 'GET' && path === 'issues/1') return { status: 200, body: issue(repo) };
  if (method === 'POST' && path === 'issues') return { status: 201, body: issue(repo) };
  if (method === 'GET' && path === 'contents/README.md') {
    const self = `https://api.github.com/repos/octo/${repo}/contents/README.md`;
    return {
      status: 200,
      body: {
        name: 'README.md', path: 'README.md', sha: '3d21ec53a331a6f037a91c368710b99387d012c1', size: 8, url: self,
        html_url: `https://github.com/octo/${repo}/blob/main/README.md`,
        git_url: `https://api.github.com/repos/octo/${repo}/git/blobs/3d21ec53a331a6f037a91c368710b99387d012c1`,
        download_url: `https://raw.githubusercontent.com/octo/${repo}/main/README.md`, type: 'file',
        content: Buffer.from('# Hello\n').toString('base64'), encoding: 'base64',
        _links: { self, git: null, html: null },
      },
    };
  }
  return githubFailures.missing;
}

const location = { lat: 37.7955, lng: -122.3937 };
const mapsBodies = {
  // geocode: the address decides.
  'Ferry Building': {
    status: 'OK',
    results: [{ formatted_address: '1 Ferry Building, San Francisco, CA 94111, USA', geometry: { location }, place_id: 'ChIJ-ferry' }],
  },
  Nowhere: { status: 'ZERO_RESULTS', results: [] },
  denied: { status: 'REQUEST_DENIED', error_message: 'The provided API key is invalid. ', results: [] },
};

function maps({ url }) {
  const path = url.pathname;
  if (path === '/maps/api/geocode/json') {
    const address = url.searchParams.get('address');
    if (address === 'over quota') {
      return { status: 429, body: { status: 'OVER_QUERY_LIMIT', error_message: 'You have exceeded your rate-limit for this API.', results: [] } };
    }
    return { status: 200, body: mapsBodies[address] ?? mapsBodies.Nowhere };
  }
  if (path === '/maps/api/elevation/json') {
    if (url.searchParams.get('locations') === '0,0') {
      return { status: 500, body: '<!DOCTYPE html><html><title>Error 500 (Server Error)!!1</title></html>' };
    }
    return { status: 200, body: { status: 'OK', results: [{ elevation: 5.2, location, resolution: 9.5 }] } };
  }
  // A distance matrix that says OK but has no rows: the server's code reads them anyway.
  if (path === '/maps/api/distancematrix/json') return { status: 200, body: { status: 'OK', origin_addresses: [], destination_addresses: [] } };
  if (path === '/maps/api/directions/json') return 'reset';
  return { status: 404, body: '<html>Not Found</html>' };
}

const driveFiles = [
  { id: 'doc-1', name: 'Plan', mimeType: 'application/vnd.google-apps.document' },
  { id: 'txt-1', name: 'notes.txt', mimeType: 'text/plain' },
];
const googleError = (code, status, message, reason, domain = 'global') => ({
  status: code,
  body: { error: { code, message, errors: [{ message, domain, reason }], status } },
});
const driveFailures = {
  missing: googleError(404, 'NOT_FOUND', 'File not found: missing.', 'notFound'),
  expired: googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'authError'),
  limited: {
    ...googleError(403, 'PERMISSION_DENIED', "User rate limit exceeded.", 'userRateLimitExceeded', 'usageLimits'),
    headers: { 'retry-after': '7' },
  },
  broken: googleError(500, 'INTERNAL', 'Internal Error', 'backendError'),
};

function drive({ url }) {
  const path = url.pathname;
  if (path === '/drive/v3/files') {
    const query = url.searchParams.get('q') ?? '';
    const token = url.searchParams.get('pageToken') ?? '';
    if (token === 'reset') return 'reset';
    for (const [name, failure] of Object.entries(driveFailures)) if (query.includes(`'${name}'`) || token === name) return failure;
    const files = query === '' ? driveFiles : driveFiles.map((file) => ({ ...file, modifiedTime: '2026-11-30T10:00:00.000Z', size: '42' }));
    return { status: 200, body: query === '' && token === '' ? { nextPageToken: 'page-2', files } : { files } };
  }
  const [, , , , id, action] = path.split('/');
  if (driveFailures[id] !== undefined) return driveFailures[id];
  const file = driveFiles.find((each) => each.id === id);
  if (file === undefined) return driveFailures.missing;
  if (action === 'export') return { status: 200, body: '# Plan\n\nShip it.\n' };
  if (url.searchParams.get('alt') === 'media') return { status: 200, body: 'remember the milk\n' };
  return { status: 200, body: { mimeType: file.mimeType } };
}

const notionError = (status, code, message, headers = {}) => ({
  status,
  headers: { 'x-request-id': 'd3b2a8f0-notion-request', ...headers },
  body: { object: 'error', status, code, message, request_id: 'd3b2a8f0-notion-request' },
});
const notionFailures = {
  missing: notionError(404, 'object_not_found', 'Could not find page with ID: missing. Make sure the relevant pages and databases are shared with your integration.'),
  private: notionError(401, 'unauthorized', 'API token is invalid.'),
  busy: notionError(429, 'rate_limited', 'Rate limited', { 'retry-after': '7' }),
  broken: notionError(500, 'internal_server_error', 'Unexpected error occurred.'),
};

function notion({ url }) {
  if (url.pathname === '/v1/users/me') {
    return { status: 200, body: { object: 'user', id: 'bot-1', name: 'Integration', type: 'bot', bot: { owner: { type: 'workspace', workspace: true } } } };
  }
  const [, , pages, id] = url.pathname.split('/');
  if (pages !== 'pages') return notionFailures.missing;
  if (id === 'reset') return 'reset';
  if (notionFailures[id] !== undefined) return notionFailures[id];
  return {
    status: 200,
    body: {
      object: 'page', id, created_time: '2026-11-30T10:00:00.000Z', archived: false, url: `https://www.notion.so/${id}`,
      properties: { title: { id: 'title', type: 'title', title: [{ type: 'text', plain_text: 'Plan' }] } },
    },
  };
}

export const fakes = { 'api.github.com': github, 'maps.googleapis.com': maps, 'www.googleapis.com': drive, 'api.notion.com': notion };
