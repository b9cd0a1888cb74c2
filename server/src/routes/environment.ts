/** GET /environment.json: the environment manifest with every remote's entry resolved, never cached. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../errors.js';
import { sendError } from '../plugins/error-handler.js';
import { ManifestError, readEnvironmentManifest, resolveEnvironmentManifest } from '../services/environment.js';

export interface EnvironmentRouteOptions {
  manifestFile: string;
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
        const manifest = await readEnvironmentManifest(options.manifestFile);
        return resolveEnvironmentManifest(manifest, options.devRemotes);
      } catch (error) {
        if (!(error instanceof ManifestError)) throw error;
        request.log.error({ file: options.manifestFile, problems: error.problems }, 'the environment manifest is not usable');
        return sendError(reply, 500, 'Environment manifest unavailable');
      }
    },
  );
};
