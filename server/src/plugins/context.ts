/** External plugins: what every other plugin and route may use (the database, the configuration, the token issuer, the list engine). */
import type { FastifyInstance } from 'fastify';
import type { PortalConfiguration } from '@portal/api';
import type { Database } from '../db/database.js';
import { embeddedIssuer, type TokenIssuer } from '../services/tokens/issuer.js';
import { embeddedListEngine } from '../services/lists/embedded.js';
import type { ListEngine } from '../services/lists/engine.js';
import { unencapsulated } from './unencapsulated.js';

declare module 'fastify' {
  interface FastifyInstance {
    readonly db: Database;
    readonly portalConfig: Readonly<PortalConfiguration>;
    /** Who issues artifact-repository tokens (PORTAL_TOKEN_ISSUER). */
    readonly tokenIssuer: TokenIssuer;
    /** What runs the mailing lists (PORTAL_LIST_ENGINE). */
    readonly listEngine: ListEngine;
  }
}

export interface ContextOptions {
  db: Database;
  portal: PortalConfiguration;
  /** Default: the embedded issuer. */
  tokenIssuer?: TokenIssuer;
  /** Default: the embedded list engine. */
  listEngine?: ListEngine;
}

export const contextPlugin = unencapsulated(async function context(app: FastifyInstance, options: ContextOptions) {
  app.decorate('db', options.db);
  app.decorate('portalConfig', Object.freeze({ ...options.portal }));
  app.decorate('tokenIssuer', options.tokenIssuer ?? embeddedIssuer);
  app.decorate('listEngine', options.listEngine ?? embeddedListEngine);
}, 'context');
