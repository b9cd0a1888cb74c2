/**
 * GET /environment.json: the environment's pins (from the database, so every server on one
 * database serves the same) with every remote's entry and the digests of its entry files; a
 * platform administrator's previews in place of the pins for that session. Never cached.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../errors.js';
import { sendError } from '../plugins/error-handler.js';
import { servedManifest } from '../services/federation.js';

export interface EnvironmentRouteOptions {
  /** The environment this server serves (the name inside its manifest file), known once the app is ready. */
  environment: () => string;
  devRemotes: Readonly<Record<string, string>>;
}

const ResolvedManifestBody = Type.Object({
  environment: Type.String(),
  remotes: Type.Immutable(
    Type.Array(
      Type.Object({
        name: Type.String(),
        version: Type.Optional(Type.String()),
        entry: Type.String(),
        contract: Type.String(),
        routes: Type.Immutable(Type.Array(Type.String())),
        integrity: Type.Optional(Type.Record(Type.String(), Type.String())),
        preview: Type.Optional(Type.Boolean()),
      }),
    ),
  ),
});

export const environmentRoutes: FastifyPluginAsyncTypebox<EnvironmentRouteOptions> = async (app, options) => {
  app.get(
    '/environment.json',
    { schema: { response: { 200: ResolvedManifestBody, 500: ErrorBody } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        const session = await request.portalSession();
        const previewSession = session?.account?.permissions.includes('MANAGE_REMOTES') ? session.idHash : undefined;
        return await servedManifest(app.db, options.environment(), { devRemotes: options.devRemotes, ...(previewSession ? { previewSession } : {}) });
      } catch (error) {
        request.log.error({ err: error }, 'the environment manifest cannot be read from the database');
        return sendError(reply, 500, 'Environment manifest unavailable');
      }
    },
  );
};
