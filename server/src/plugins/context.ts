/** External plugins: what every other plugin and route may use (the database, the configuration). */
import type { FastifyInstance } from 'fastify';
import type { PortalConfiguration } from '@portal/api';
import type { Database } from '../db/database.js';
import { unencapsulated } from './unencapsulated.js';

declare module 'fastify' {
  interface FastifyInstance {
    readonly db: Database;
    readonly portalConfig: Readonly<PortalConfiguration>;
  }
}

export interface ContextOptions {
  db: Database;
  portal: PortalConfiguration;
}

export const contextPlugin = unencapsulated(async function context(app: FastifyInstance, options: ContextOptions) {
  app.decorate('db', options.db);
  app.decorate('portalConfig', Object.freeze({ ...options.portal }));
}, 'context');
