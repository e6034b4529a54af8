/**
 * A NestJS microservice serving MCP over stdio with `@rekog/mcp-nest` (its McpStrategy and StdioTransport), the policy
 * registered as docs/frameworks.md shows it. Runs from a scratch install (scripts/frameworks.sh). NEST_FILTER says how
 * the filter is registered:
 * - `global` (the default): `app.useGlobalFilters(new McpErrorPolicyFilter(policy))`;
 * - `app-filter`: `{ provide: APP_FILTER, useValue: new McpErrorPolicyFilter(policy) }` in the module;
 * - `use-class`: `{ provide: APP_FILTER, useClass: McpErrorPolicyFilter }` (Nest constructs it: the default policy);
 * - `off`: no filter (what mcp-nest and Nest alone send).
 * Two tools are registered at run time (`strategy.registerTool()`, outside Nest's pipeline, so no filter sees them):
 * `dynamic_crash` as it is, `dynamic_wrapped` under `withClientVisibleErrors`.
 * Nest logs its errors and warnings to stderr (the tests look for its own error lines there); stdout is the protocol's.
 */
import 'reflect-metadata';
import { Module, type Provider } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { McpStrategy, StdioTransport } from '@rekog/mcp-nest';
import { withClientVisibleErrors } from '../../../src/index.js';
import { McpErrorPolicyFilter } from '../../../src/nestjs/index.js';
import { policy, SheetsTools } from './nest-tools.js';

const registration = process.env['NEST_FILTER'] ?? 'global';

const filters: Provider[] =
  registration === 'app-filter'
    ? [{ provide: APP_FILTER, useValue: new McpErrorPolicyFilter(policy) }]
    : registration === 'use-class'
      ? [{ provide: APP_FILTER, useClass: McpErrorPolicyFilter }]
      : [];

@Module({ controllers: [SheetsTools], providers: filters })
class AppModule {}

const mcp = new McpStrategy({ name: 'sheets', version: '1.0.0', transports: [new StdioTransport()] });
const dynamicCrash = () => {
  throw new Error('Cannot read /srv/app/secrets/config.json');
};
mcp.registerTool({ name: 'dynamic_crash', description: 'registered at run time', handler: dynamicCrash });
mcp.registerTool({ name: 'dynamic_wrapped', description: 'registered at run time, wrapped', handler: withClientVisibleErrors(dynamicCrash, { name: 'dynamic_wrapped', policy }) });
const app = await NestFactory.createMicroservice(AppModule, { strategy: mcp, logger: ['error', 'warn'] });
if (registration === 'global') app.useGlobalFilters(new McpErrorPolicyFilter(policy));
await app.listen();
