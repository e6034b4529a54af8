/**
 * One policy per server on SDK v1 (the matrix runs it on the oldest supported 1.x and the latest): hand-wrapped
 * callbacks follow the server's policy and registered name, a wrapper with its own policy keeps it, and every call
 * gives one record (for a failure) and one outcome, to the governing policy. In memory and over stdio.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describeOnePolicy, onePolicySdk } from './one-policy-check.js';

describeOnePolicy(onePolicySdk('v1', { McpServer, Client, InMemoryTransport, StdioClientTransport }));
