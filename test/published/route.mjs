// Preloaded (`node --import`) into each API server of test/published/apis.mjs: routes the HTTP clients that read no
// proxy variable through the proxy in HTTPS_PROXY, as a corporate network's setup would, without an edit to the
// server's code. node-fetch (Google Maps) uses https.globalAgent; Node's own fetch (the GitHub server) uses undici's
// global dispatcher. gaxios and axios read HTTPS_PROXY themselves. Trust comes from NODE_EXTRA_CA_CERTS.
import https from 'node:https';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { ProxyAgent, setGlobalDispatcher } from 'undici';

const proxy = process.env.HTTPS_PROXY;
if (proxy === undefined) throw new Error('route.mjs: HTTPS_PROXY is not set');
https.globalAgent = new HttpsProxyAgent(proxy);
setGlobalDispatcher(new ProxyAgent(proxy));
