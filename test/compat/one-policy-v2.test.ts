/**
 * One policy per server on SDK v2 (`@modelcontextprotocol/server` with the v2 client; the matrix runs it on 2.0.0
 * and the latest): the same scenario and assertions as one-policy.test.ts. On v2 a prompt's callback lives in a
 * closure of the SDK, so the hand-wrapped prompt registered before the install follows the server through the wrapper
 * around the SDK's prompt handler.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describeOnePolicy, onePolicySdk } from './one-policy-check.js';

describeOnePolicy(onePolicySdk('v2', { McpServer, Client, InMemoryTransport, StdioClientTransport }));
