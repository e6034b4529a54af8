// h3's deliberate error with another 4xx status.
export default defineMcpTool({
  name: 'locked',
  description: 'an h3 409',
  handler: async () => {
    throw createError({ statusCode: 409, statusMessage: 'Conflict', message: 'Sheet q3 is being edited' });
  },
});
