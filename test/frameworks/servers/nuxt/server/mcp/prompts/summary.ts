export default defineMcpPrompt({
  name: 'summary',
  description: 'a bug',
  handler: async () => {
    throw new TypeError(`Cannot read properties of undefined (reading 'rows')`);
  },
});
