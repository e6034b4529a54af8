// The network the API servers of test/published/apis.mjs see: an HTTP proxy on 127.0.0.1, as a corporate network has
// one. It answers CONNECT by terminating TLS itself, with a certificate for the fakes' hosts signed by a CA made here at
// run time (the openssl CLI); it also serves absolute-form requests (`GET https://host/path`, which axios sends to a
// proxy in plain HTTP). Behind it, one fake per API host answers. A host without a fake is refused, so no request
// leaves 127.0.0.1; every request is recorded, so that the driver can assert what reached each fake.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';

/** Makes a CA and one certificate it signs for `hosts`, in `dir`; returns the paths and the PEM texts. */
export function makeCertificates(dir, hosts) {
  const file = (name) => join(dir, name);
  const openssl = (...args) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=mcp-error-policy published test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout', file('ca.key'), '-out', file('ca.pem'));
  writeFileSync(file('leaf.ext'), `subjectAltName=${hosts.map((host) => `DNS:${host}`).join(',')}\n`
    + 'basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl('req', '-new', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${hosts[0]}`, '-keyout', file('leaf.key'),
    '-out', file('leaf.csr'));
  openssl('x509', '-req', '-in', file('leaf.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial',
    '-days', '1', '-extfile', file('leaf.ext'), '-out', file('leaf.pem'));
  return { caFile: file('ca.pem'), key: readFileSync(file('leaf.key')), cert: readFileSync(file('leaf.pem')) };
}

/**
 * Starts the proxy on 127.0.0.1 (port 0). `fakes` maps a host name to `(request) => ({ status, headers, body })`, where
 * request is `{ method, url: URL, headers, body: string }`, or to `'reset'` (the connection is closed unanswered).
 * Returns `{ url, requests, refused, close }`: `requests` lists `{ host, via: 'connect' | 'absolute-form', method,
 * path }` of each request a fake answered, `refused` each host it refused.
 */
export async function startProxy({ fakes, key, cert }) {
  const requests = [];
  const refused = [];
  const answer = (host, via, req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const fake = fakes[host];
      if (fake === undefined) {
        refused.push(host);
        res.writeHead(403, { 'content-type': 'text/plain' }).end(`no fake for ${host}`);
        return;
      }
      const url = new URL(req.url, `https://${host}`);
      requests.push({ host, via, method: req.method, path: url.pathname });
      const answered = fake({ method: req.method, url, headers: req.headers, body });
      if (answered === 'reset') {
        req.socket.destroy();
        return;
      }
      const { status, headers = {}, body: out = '' } = answered;
      const text = typeof out === 'string' ? out : JSON.stringify(out);
      const type = typeof out === 'string' ? 'text/html; charset=UTF-8' : 'application/json; charset=utf-8';
      res.writeHead(status, { 'content-type': type, ...headers }).end(text);
    });
  };
  // Requests inside a tunnel: the host is the one the client named in CONNECT.
  const inside = createServer((req, res) => answer(req.socket.tunnelHost, 'connect', req, res));
  // Absolute-form requests (`GET https://host/path`) come in plain HTTP.
  const proxy = createServer((req, res) => {
    const target = URL.canParse(req.url) ? new URL(req.url) : undefined;
    if (target === undefined) {
      res.writeHead(400).end('absolute-form requests only');
      return;
    }
    answer(target.hostname, 'absolute-form', req, res);
  });
  proxy.on('connect', (req, socket, head) => {
    const host = req.url.replace(/:\d+$/, '');
    if (fakes[host] === undefined || !req.url.endsWith(':443')) {
      refused.push(req.url);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    const tls = new TLSSocket(socket, { isServer: true, key, cert });
    tls.tunnelHost = host;
    inside.emit('connection', tls);
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    refused,
    close: () => {
      proxy.closeAllConnections();
      inside.closeAllConnections();
      return new Promise((resolve) => proxy.close(resolve));
    },
  };
}
