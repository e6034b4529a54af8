import { withClientVisibleErrors } from 'mcp-error-policy';
import { policy } from '../policy';

export const metadata = { name: 'ok', description: 'works' };
export default withClientVisibleErrors(async (): Promise<string> => 'fine', { name: metadata.name, policy });
