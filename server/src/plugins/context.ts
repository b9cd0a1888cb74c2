/** External plugins: what every other plugin and route may use (the database, the configuration, the token issuer). */
import type { FastifyInstance } from 'fastify';
import type { PortalConfiguration } from '@portal/api';
import type { Database } from '../db/database.js';
import { embeddedIssuer, type TokenIssuer } from '../services/tokens/issuer.js';
import { unencapsulated } from './unencapsulated.js';

declare module 'fastify' {
  interface FastifyInstance {
    readonly db: Database;
    readonly portalConfig: Readonly<PortalConfiguration>;
    /** Who issues artifact-repository tokens (PORTAL_TOKEN_ISSUER). */
    readonly tokenIssuer: TokenIssuer;
  }
}

export interface ContextOptions {
  db: Database;
  portal: PortalConfiguration;
  /** Default: the embedded issuer. */
  tokenIssuer?: TokenIssuer;
}

export const contextPlugin = unencapsulated(async function context(app: FastifyInstance, options: ContextOptions) {
  app.decorate('db', options.db);
  app.decorate('portalConfig', Object.freeze({ ...options.portal }));
  app.decorate('tokenIssuer', options.tokenIssuer ?? embeddedIssuer);
}, 'context');
