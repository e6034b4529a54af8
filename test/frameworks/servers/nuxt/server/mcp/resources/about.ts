export default defineMcpResource({
  name: 'about',
  uri: 'about://app',
  metadata: { mimeType: 'text/plain' },
  handler: async (uri: URL) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'sheets 1.0.0' }] }),
});
