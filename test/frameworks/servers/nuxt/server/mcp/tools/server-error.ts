// h3's error with a 5xx status: judged as any error (this text is a crash's).
export default defineMcpTool({
  name: 'server_error',
  description: 'an h3 500',
  handler: async () => {
    throw createError({ statusCode: 500, message: 'Cannot read /srv/app/secrets/config.json' });
  },
});
