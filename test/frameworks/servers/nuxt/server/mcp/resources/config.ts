export default defineMcpResource({
  name: 'config',
  uri: 'config://app',
  handler: async () => {
    throw new TypeError(`Cannot read properties of undefined (reading 'host')`);
  },
});
