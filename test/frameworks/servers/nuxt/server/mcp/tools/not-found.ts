// h3's deliberate error (Nitro's createError, h3 1.x), 4xx: shown as written; its `data` is not.
export default defineMcpTool({
  name: 'not_found',
  description: 'an h3 404',
  handler: async () => {
    throw createError({ statusCode: 404, message: 'No sheet named q3', data: { sheet: 'q3' } });
  },
});
