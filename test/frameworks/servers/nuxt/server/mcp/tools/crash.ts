// A bug: the client must see only a reference, never this text (a server path).
export default defineMcpTool({
  name: 'crash',
  description: 'a bug',
  handler: async () => {
    throw new Error('Cannot read /srv/app/secrets/config.json');
  },
});
