/**
 * A hybrid NestJS app: an HTTP app (Express) with plain routes, and the `@rekog/mcp-nest` microservice connected to it
 * with `inheritAppConfig: true`, serving MCP over Streamable HTTP on the app's own server (127.0.0.1, an ephemeral
 * port, printed as `LISTENING <origin>` on stdout). The filter is registered on the app as docs/frameworks.md shows
 * it; NEST_FILTER: `global` (the default: `app.useGlobalFilters`), `app-filter` (`APP_FILTER` in the module),
 * `microservice` (on the microservice alone, connected without `inheritAppConfig`: the HTTP routes never see it), or
 * `off`.
 * The routes `GET /sheets/broken` (a TypeError) and `GET /sheets/missing` (Nest's NotFoundException) fail as Nest
 * answers them. Runs from a scratch install (scripts/frameworks.sh); Nest logs errors and warnings to stderr.
 */
import 'reflect-metadata';
import { Controller, Get, Module, NotFoundException, type Provider } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import { McpStrategy, StreamableHttpTransport } from '@rekog/mcp-nest';
import { McpErrorPolicyFilter } from '../../../src/nestjs/index.js';
import { policy, SheetsTools } from './nest-tools.js';

const registration = process.env['NEST_FILTER'] ?? 'global';

const sheets: Record<string, { title: string } | undefined> = {};

@Controller('sheets')
class SheetsRoutes {
  @Get('broken')
  broken() {
    return sheets['q3']!.title;
  }

  @Get('missing')
  missing() {
    throw new NotFoundException('No sheet named q3');
  }

  @Get('fine')
  fine() {
    return { title: 'Q3' };
  }
}

const filters: Provider[] = registration === 'app-filter' ? [{ provide: APP_FILTER, useValue: new McpErrorPolicyFilter(policy) }] : [];

@Module({ controllers: [SheetsRoutes, SheetsTools], providers: filters })
class AppModule {}

const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
const mcp = new McpStrategy({ name: 'sheets', version: '1.0.0', transports: [new StreamableHttpTransport()] });
mcp.setHttpAdapter(app.getHttpAdapter());
// before connectMicroservice: the microservice binds its handlers, with the filters the app has by then, when connected
if (registration === 'global') app.useGlobalFilters(new McpErrorPolicyFilter(policy));
if (registration === 'microservice') {
  // its own filters, taken when it starts (deferInitialization: a connected microservice binds its handlers at once)
  app.connectMicroservice({ strategy: mcp }, { deferInitialization: true }).useGlobalFilters(new McpErrorPolicyFilter(policy));
} else {
  app.connectMicroservice({ strategy: mcp }, { inheritAppConfig: true });
}
await app.startAllMicroservices();
await app.listen(0, '127.0.0.1');
process.stdout.write(`LISTENING ${(await app.getUrl()).replace('[::1]', '127.0.0.1')}\n`);
