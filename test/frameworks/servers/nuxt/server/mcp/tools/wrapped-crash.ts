// A 4xx h3 error whose text carries its cause's (a failure the policy would not show): masked as a crash.
export default defineMcpTool({
  name: 'wrapped_crash',
  description: 'an h3 400 made of a crash',
  handler: async () => {
    const cause = new Error('connection to db.internal:5432 refused for user app_rw');
    throw createError({ statusCode: 400, message: `Bad sheet: ${cause.message}`, cause });
  },
});
