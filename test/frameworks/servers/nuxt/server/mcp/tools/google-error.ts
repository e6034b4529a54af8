import { request } from 'gaxios';

export default defineMcpTool({
  name: 'google_error',
  description: 'a Google API error from gaxios',
  handler: async () => {
    await request({ url: `${process.env['FAKE_GOOGLE']}/v1/forbidden`, retry: false });
    return 'unreachable';
  },
});
