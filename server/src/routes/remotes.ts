/**
 * GET /remotes/:name/:version/*: the built files of one version of a remote. Hashed files are
 * cached for a year; mf-manifest.json and remoteEntry.js are revalidated (ETag). Any origin may
 * fetch them, since a host on another origin may load these remotes.
 */
import { basename, join } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  cacheControlFor,
  isFile,
  isRemoteName,
  isVersion,
  remoteVersionDir,
  safeRelativePath,
} from '../services/static-files.js';

export interface RemoteRouteOptions {
  /** <dir>/<name>/<version>/; undefined: the workspace's remote-<name>/dist/<version>/. */
  remotesDir: string | undefined;
}

export const remoteRoutes: FastifyPluginAsyncTypebox<RemoteRouteOptions> = async (app, options) => {
  app.get(
    '/remotes/:name/:version/*',
    {
      schema: {
        params: Type.Object({ name: Type.String(), version: Type.String(), '*': Type.String() }),
      },
    },
    async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      const { name, version } = request.params;
      const path = safeRelativePath(request.params['*']);
      if (!isRemoteName(name) || !isVersion(version) || path === undefined) return reply.callNotFound();
      const dir = remoteVersionDir(options.remotesDir, name, version);
      if (!(await isFile(join(dir, path)))) return reply.callNotFound();
      reply.header('cache-control', cacheControlFor(basename(path)));
      return reply.sendFile(path, dir);
    },
  );
};
