/**
 * The Fastify application. Plugins load in order: external (database, configuration, static file
 * sending), application (route access declarations, error handling), then routes. Nothing is
 * loaded until ready() or listen(); a broken environment manifest or a route under
 * /accounts/rest without an access declaration makes ready() reject.
 */
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import type { PortalConfiguration } from '@portal/shared/config';
import type { LogLevel, ServerSettings } from './config.js';
import type { Database } from './db/database.js';
import { loggerOptions, type LogStream } from './logger.js';
import { contextPlugin } from './plugins/context.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { API_PREFIX, routeAccessPlugin } from './plugins/route-access.js';
import { apiRoutes } from './routes/api/index.js';
import { environmentRoutes } from './routes/environment.js';
import { hostRoutes } from './routes/host.js';
import { remoteRoutes } from './routes/remotes.js';
import { checkEnvironmentManifest } from './services/environment.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export type AppServerSettings = Pick<ServerSettings, 'environmentManifest' | 'hostDir' | 'remotesDir' | 'devRemotes'>;

export interface AppOptions {
  db: Database;
  portal: PortalConfiguration;
  server: AppServerSettings;
  logger?: { level: LogLevel; stream?: LogStream };
}

export function buildApp(options: AppOptions): App {
  const app = Fastify({
    logger: loggerOptions(options.logger?.level ?? 'info', options.logger?.stream),
    // Unknown body fields are refused (additionalProperties: false → 400), never silently dropped.
    ajv: { customOptions: { removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // External
  app.register(contextPlugin, { db: options.db, portal: options.portal });
  // preCompressed: the builds write .br and .gz beside each text asset; the smallest the browser
  // accepts is sent (with Vary: Accept-Encoding), else the file itself.
  app.register(fastifyStatic, { serve: false, cacheControl: false, index: false, dotfiles: 'deny', preCompressed: true });

  // Application
  app.register(routeAccessPlugin);
  app.register(errorHandlerPlugin);
  app.register(async function environmentManifestCheck() {
    await checkEnvironmentManifest(options.server.environmentManifest, options.server.devRemotes);
  });

  // Routes
  app.register(apiRoutes, { prefix: API_PREFIX });
  app.register(environmentRoutes, {
    manifestFile: options.server.environmentManifest,
    devRemotes: options.server.devRemotes,
  });
  app.register(remoteRoutes, { remotesDir: options.server.remotesDir });
  app.register(hostRoutes, { hostDir: options.server.hostDir });

  return app;
}
