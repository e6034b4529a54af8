import axios from 'axios';

export default defineMcpTool({
  name: 'rate_limited',
  description: 'an HTTP 429 from axios',
  handler: async () => {
    await axios.get(`${process.env['FAKE_APIS']}/api/items/limited`);
    return 'unreachable';
  },
});
