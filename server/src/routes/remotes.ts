/**
 * GET /remotes/:name/:version/*: the files of a published version of a remote, from the remote
 * store. Each file is checked against its published digest before it is sent (once per change of
 * the file): a file changed, added or removed after publishing is refused (404) and the log says
 * which. Hashed files are cached for a year; mf-manifest.json and remoteEntry.js are revalidated
 * (ETag). Any origin may fetch them, since a host on another origin may load these remotes.
 */
import { basename, join } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { findRemoteVersion, type RemoteVersionRecord } from '../repositories/remotes.js';
import { ServedFileCheck, versionFolder } from '../services/remote-store.js';
import { cacheControlFor, isFile, isRemoteName, isVersion, safeRelativePath } from '../services/static-files.js';

export interface RemoteRouteOptions {
  /** The remote store: <dir>/<name>/<version>/. */
  storeDir: string;
}

/** What the file server may send for a path: the file, or its precompressed copies. */
const VARIANTS = ['', '.br', '.gz'];

export const remoteRoutes: FastifyPluginAsyncTypebox<RemoteRouteOptions> = async (app, options) => {
  const check = new ServedFileCheck();
  // A published version's record never changes while the server runs: read once.
  const records = new Map<string, RemoteVersionRecord>();
  const recordOf = async (name: string, version: string): Promise<RemoteVersionRecord | undefined> => {
    const key = `${name}@${version}`;
    const known = records.get(key);
    if (known) return known;
    const record = await findRemoteVersion(app.db, name, version);
    if (record) records.set(key, record);
    return record;
  };

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
      const record = await recordOf(name, version);
      if (!record || record.files[path] === undefined) return reply.callNotFound();
      const dir = versionFolder(options.storeDir, name, version);
      for (const variant of VARIANTS) {
        const file = `${path}${variant}`;
        const digest = record.files[file];
        const intact = digest === undefined ? !(await isFile(join(dir, file))) : await check.matches(join(dir, file), digest);
        if (!intact) {
          request.log.error(
            { remote: name, version, file },
            digest === undefined
              ? `refused ${name} ${version}: ${file} was added to the remote store after publishing`
              : `refused ${name} ${version}: ${file} does not match its published digest (changed or removed after publishing)`,
          );
          return reply.callNotFound();
        }
      }
      reply.header('cache-control', cacheControlFor(basename(path)));
      return reply.sendFile(path, dir);
    },
  );
};
