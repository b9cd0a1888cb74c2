/**
 * The host application: its built files at /, and index.html for every page address so that the
 * browser's router takes over (the SPA fallback). index.html is never cached; hashed files are
 * cached for a year.
 */
import { basename, join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { isApiPath } from '../plugins/route-access.js';
import { pagePolicy, remoteOrigins } from '../plugins/security-headers.js';
import { readEnvironmentManifest, resolveEnvironmentManifest } from '../services/environment.js';
import { CACHE_NEVER, cacheControlFor, isFile, safeRelativePath } from '../services/static-files.js';

export interface HostRouteOptions {
  hostDir: string;
  /** The environment manifest and the developer overrides: where remotes load from (the page's policy). */
  manifestFile: string;
  devRemotes: Readonly<Record<string, string>>;
}

export const NOT_BUILT_MESSAGE = 'The portal has not been built. Run npm start.';

/**
 * Asset types the host build produces. A last segment with another "extension" is a page
 * address, e.g. /manage-accounts/first.last (usernames contain dots).
 */
const ASSET = /\.(?:html?|m?js|css|map|json|txt|xml|wasm|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|otf|eot|pdf)$/i;

function acceptsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

function isOtherArea(path: string): boolean {
  return isApiPath(`/${path}`) || path === 'remotes' || path.startsWith('remotes/');
}

export const hostRoutes: FastifyPluginAsyncTypebox<HostRouteOptions> = async (app, options) => {
  const { hostDir, manifestFile, devRemotes } = options;

  /** The page's Content-Security-Policy, with the origins the manifest loads remotes from now. */
  const policy = async (request: FastifyRequest): Promise<string> => {
    try {
      const manifest = resolveEnvironmentManifest(await readEnvironmentManifest(manifestFile), devRemotes);
      return pagePolicy(remoteOrigins(manifest.remotes.map((remote) => remote.entry)));
    } catch (error) {
      // The page still loads (and says its parts are unavailable): this server's files only.
      request.log.warn({ err: error }, 'no remote origins for the page policy: the environment manifest is not usable');
      return pagePolicy();
    }
  };
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> =>
    reply.header('cache-control', CACHE_NEVER).header('content-security-policy', await policy(request)).sendFile('index.html', hostDir);

  app.get(
    '/*',
    { schema: { params: Type.Object({ '*': Type.String() }) } },
    async (request, reply) => {
      const requested = request.params['*'];
      if (isOtherArea(requested)) return reply.callNotFound();
      if (!(await isFile(join(hostDir, 'index.html')))) {
        request.log.warn({ hostDir }, 'the host has not been built');
        return reply.code(503).header('cache-control', CACHE_NEVER).type('text/plain; charset=utf-8').send(NOT_BUILT_MESSAGE);
      }
      if (requested === '' || requested === 'index.html') return sendIndex(request, reply);
      const path = safeRelativePath(requested);
      if (path === undefined) return reply.callNotFound();
      if (await isFile(join(hostDir, path))) {
        reply.header('cache-control', cacheControlFor(basename(path)));
        return reply.sendFile(path, hostDir);
      }
      if (!ASSET.test(path) && acceptsHtml(request)) return sendIndex(request, reply);
      return reply.callNotFound();
    },
  );
};
