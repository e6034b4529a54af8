// The recipe of docs/frameworks.md: the tool file's default export under withClientVisibleErrors.
import { withClientVisibleErrors } from 'mcp-error-policy';
import { policy } from '../policy';

export const metadata = { name: 'crash', description: 'crashes' };
export default withClientVisibleErrors(
  async function crash(): Promise<string> {
    throw new Error('Cannot read /srv/app/secrets/config.json');
  },
  { name: metadata.name, policy },
);
