/**
 * The Fastify application. Plugins load in order: external (database, configuration, static file
 * sending), application (route access declarations, error handling), then routes. Nothing is
 * loaded until ready() or listen(); a broken environment manifest or a route under
 * /accounts/rest without an access declaration makes ready() reject.
 */
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import type { PortalConfiguration } from '@portal/api';
import type { LogLevel, ServerSettings } from './config.js';
import type { Database } from './db/database.js';
import { loggerOptions, type LogStream } from './logger.js';
import { contextPlugin } from './plugins/context.js';
import { securityPlugin } from './plugins/security.js';
import { systemClock, type Clock } from './services/clock.js';
import { DEFAULT_SECURITY_SETTINGS, type SecuritySettings } from './services/security-context.js';
import { answerClientError, errorHandlerPlugin, handleError } from './plugins/error-handler.js';
import { openapiPlugin } from './plugins/openapi.js';
import { API_PREFIX, routeAccessPlugin } from './plugins/route-access.js';
import { applySecurityHeaders, securityHeadersPlugin } from './plugins/security-headers.js';
import { textInputPlugin } from './plugins/text-input.js';
import { buildValidator } from './plugins/validator.js';
import { apiRoutes } from './routes/api/index.js';
import { environmentRoutes } from './routes/environment.js';
import { hostRoutes } from './routes/host.js';
import { remoteRoutes } from './routes/remotes.js';
import { checkEnvironmentManifest } from './services/environment.js';
import { remoteStoreDir } from './services/remote-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The remote store and the environment this server serves (routes/api/federation.ts). */
    readonly federation: { readonly storeDir: string; environment(): string };
    /** This server's provisioning engine, when targets are configured (routes/provisioning). */
    readonly provisioning: { readonly engine: ProvisioningEngine | undefined; readonly historyDays: number };
  }
}
import type { TokenIssuer } from './services/tokens/issuer.js';
import type { ListEngine } from './services/lists/engine.js';
import { introspectionRoutes } from './routes/introspection.js';
import { oidcRoutes } from './routes/service-sign-in/oidc.js';
import type { ProvisioningEngine } from './services/provisioning/engine.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export type AppServerSettings = Pick<ServerSettings, 'environmentManifest' | 'hostDir' | 'remotesDir' | 'devRemotes'> &
  Partial<Pick<ServerSettings, 'dataDir' | 'provisioningHistoryDays'>> &
  Partial<SecuritySettings>;

/** HTTPS for the server's own listener: PEM contents (not file names). */
export interface AppTls {
  cert: string | Buffer;
  key: string | Buffer;
  /** CA bundle for client (smart-card) certificates: the listener then asks for one but does not insist. */
  clientCa?: string | Buffer;
}

export interface AppOptions {
  db: Database;
  portal: PortalConfiguration;
  server: AppServerSettings;
  logger?: { level: LogLevel; stream?: LogStream };
  /** The time sessions, challenges and sign-in go by (tests move it). */
  clock?: Clock;
  tls?: AppTls;
  /** Who issues artifact-repository tokens; default: the portal itself. */
  tokenIssuer?: TokenIssuer;
  /** What runs the mailing lists; default: the embedded engine. */
  listEngine?: ListEngine;
  /** The provisioning engine (its reconciles and retries are asked for through the API). */
  provisioning?: ProvisioningEngine;
}

function httpsOptions(tls: AppTls | undefined): Record<string, unknown> {
  if (!tls) return {};
  return {
    https: {
      cert: tls.cert,
      key: tls.key,
      ...(tls.clientCa === undefined
        ? {}
        : // Users without a card still use the site: a missing or unverified certificate is not a
          // TLS error; POST /cert/sessions accepts only one the TLS layer verified (socket.authorized).
          { ca: tls.clientCa, requestCert: true, rejectUnauthorized: false }),
    },
  };
}

export function buildApp(options: AppOptions): App {
  // With `https` Fastify serves through node's https.Server, which is an http.Server to every
  // plugin and route here; the type parameter stays the default one.
  const fastifyOptions: FastifyServerOptions = {
    logger: loggerOptions(options.logger?.level ?? 'info', options.logger?.stream),
    // Unknown body fields are refused (additionalProperties: false → 400), never silently dropped.
    ajv: { customOptions: { removeAdditional: false } },
    // Ajv as set up above, the body without type coercion, and no non-finite number (plugins/validator.ts).
    schemaController: { compilersFactory: { buildValidator } },
    // Errors Fastify meets before any route (a malformed percent-encoding in the path, a path
    // parameter over the router's length limit) get the one error shape too: Fastify's default
    // answer echoed the path and its internal code (FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH).
    // Those answers are made before any hook: they get the security headers here.
    frameworkErrors: (error, request, reply) => {
      applySecurityHeaders(request, reply);
      return handleError(error, request, reply);
    },
    // A request Node's parser refuses (a malformed request line, headers too large) never reaches
    // Fastify: its raw answer carries the one error shape and the security headers too.
    clientErrorHandler: answerClientError,
    // Fastify's own 503 while closing is written before any hook; plugins/security-headers.ts answers it.
    return503OnClosing: false,
    // A mailing list's address is a path parameter and may be as long as any address (320): the
    // router's default limit of 100 answered 414 for a long list name on a long email domain.
    routerOptions: { maxParamLength: 320 },
  };
  Object.assign(fastifyOptions, httpsOptions(options.tls));
  const app = Fastify(fastifyOptions).withTypeProvider<TypeBoxTypeProvider>();
  const { environmentManifest, hostDir, devRemotes } = options.server;
  const security: Partial<SecuritySettings> = {};
  for (const key of Object.keys(DEFAULT_SECURITY_SETTINGS) as (keyof SecuritySettings)[]) {
    if (options.server[key] !== undefined) Object.assign(security, { [key]: options.server[key] });
  }

  // External
  app.register(contextPlugin, {
    db: options.db,
    portal: options.portal,
    ...(options.tokenIssuer ? { tokenIssuer: options.tokenIssuer } : {}),
    ...(options.listEngine ? { listEngine: options.listEngine } : {}),
  });
  app.register(fastifyCookie);
  // preCompressed: the builds write .br and .gz beside each text asset; the smallest the browser
  // accepts is sent (with Vary: Accept-Encoding), else the file itself.
  app.register(fastifyStatic, { serve: false, cacheControl: false, index: false, dotfiles: 'deny', preCompressed: true });

  // Application
  app.register(routeAccessPlugin);
  app.register(securityPlugin, {
    db: options.db,
    clock: options.clock ?? systemClock,
    settings: { ...DEFAULT_SECURITY_SETTINGS, ...security },
  });
  app.register(securityHeadersPlugin);
  app.register(errorHandlerPlugin);
  app.register(textInputPlugin);
  // The environment served is the one the manifest file names (read once, at start).
  let environment: string | undefined;
  app.register(async function environmentManifestCheck() {
    environment = (await checkEnvironmentManifest(environmentManifest, devRemotes)).environment;
  });
  // Before the routes: it describes those added after it (GET /accounts/rest/openapi.json).
  app.register(openapiPlugin);

  // Routes
  app.register(apiRoutes, { prefix: API_PREFIX });
  app.register(introspectionRoutes);
  app.register(oidcRoutes);
  const servedEnvironment = (): string => {
    if (environment === undefined) throw new Error('the environment manifest has not been read');
    return environment;
  };
  const storeDir = remoteStoreDir(options.server);
  app.decorate('federation', { storeDir, environment: servedEnvironment });
  app.decorate('provisioning', { engine: options.provisioning, historyDays: options.server.provisioningHistoryDays ?? 30 });
  app.register(environmentRoutes, { environment: servedEnvironment, devRemotes });
  app.register(remoteRoutes, { storeDir });
  app.register(hostRoutes, { hostDir, devRemotes, environment: servedEnvironment, storeDir });

  return app;
}
