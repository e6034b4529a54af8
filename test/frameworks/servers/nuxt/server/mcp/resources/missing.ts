export default defineMcpResource({
  name: 'missing',
  uri: 'sheet://q3',
  handler: async () => {
    throw createError({ statusCode: 404, message: 'No sheet named q3' });
  },
});
