/** Where telemetry reads the negotiated protocol version: the SDK internals now live in src/adapters/. */
export { protocolVersionOf } from './adapters/low-level-internals.js';
