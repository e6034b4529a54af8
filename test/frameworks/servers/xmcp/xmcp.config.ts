// An xmcp project (scripts/frameworks.sh copies this directory into .tmp/frameworks/xmcp/, beside xmcp, its compiler
// and the packed mcp-error-policy, then runs `xmcp build`): tools only, served over stdio.
import type { XmcpConfig } from 'xmcp';

const config: XmcpConfig = { stdio: true, paths: { tools: 'src/tools', prompts: false, resources: false } };
export default config;
