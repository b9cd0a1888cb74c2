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
import { readFile, stat } from 'node:fs/promises';
import { brandName, ConfigurationBody, type PortalConfiguration } from '@portal/api';
import { remoteForPath, type BootData, type ResolvedEnvironmentManifest } from '@portal/shared/contract';
import { servedManifest } from '../services/federation.js';
import { xsrfTokenOf } from '../services/sessions.js';
import { CACHE_NEVER, cacheControlFor, isFile, safeRelativePath } from '../services/static-files.js';

export interface HostRouteOptions {
  hostDir: string;
  /** The environment this server serves (for the pins the first HTML carries). */
  environment: () => string;
  /** The developer overrides: the only remotes loaded from elsewhere than this server (the page's policy). */
  devRemotes: Readonly<Record<string, string>>;
}

export const NOT_BUILT_MESSAGE = 'The portal has not been built. Run npm start.';

/** The id of the JSON block the first HTML carries (read by host/src/prefetch.ts). */
export const BOOT_DATA_ID = 'portal-boot';

/** JSON safe inside a <script> element: no '<' (so no '</script>'), no line separators. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The configuration as GET /accounts/rest/configuration answers it (its public fields only). */
function publicConfiguration(config: object): Record<string, unknown> {
  return Object.fromEntries(Object.keys(ConfigurationBody.properties).map((key) => [key, (config as Record<string, unknown>)[key]]));
}

/** A value safe as an element's text and inside a double-quoted attribute. */
const escapeHtml = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The startup frame's top bar in index.html (host/src/index.html), empty as built. */
const STARTUP_BAR = /(<div\b[^>]*\bid="?startup-bar"?[^>]*>)(<\/div>)/;

/**
 * The startup frame's top bar with the portal's name in it, as the top bar then shows it: the
 * first paint has the page's first words (issue 17: first contentful paint), while the scripts are
 * on their way. host/src/StartupSkeleton.tsx draws the same until the shell has loaded.
 */
export function startupBar(html: string, configuration: Pick<PortalConfiguration, 'brand'>): string {
  return html.replace(STARTUP_BAR, (_, open: string, close: string) => `${open}<span class="startup-brand">${escapeHtml(brandName(configuration))}</span>${close}`);
}

/** Who the first HTML says is signed in, and the session's anti-forgery token (see BootData). */
export type BootSignIn = Pick<BootData, 'session' | 'xsrf'>;

/**
 * What the first HTML carries so that the page needs no round trip before its content: the
 * configuration and the environment's pins (as /accounts/rest/configuration and
 * /environment.json answer them), who is signed in with the session's anti-forgery token (as
 * /sessions/current and /xsrf answer them), and preload hints for the scripts of the page: a page
 * of the host's own beyond the shell (`hostScripts`, from the build's page-preloads.json), and the
 * entry files of the remote that owns the requested path, with their integrity.
 */
export function bootHead(
  path: string,
  configuration: unknown,
  manifest: ResolvedEnvironmentManifest | undefined,
  signIn: BootSignIn = {},
  hostScripts: readonly string[] = [],
): string {
  const boot: BootData = { configuration: publicConfiguration(configuration as object), environment: manifest ?? null, ...signIn };
  const parts = [`<script type="application/json" id="${BOOT_DATA_ID}">${scriptJson(boot)}</script>`];
  // The host's own page at this address (the sign-in page on /login), as the host loads it. At low
  // priority: ahead of the first file and the styles they held the first paint back (Lighthouse's
  // slow 4G: 0.95 s to 1.6-1.9 s); behind them, the page's content is as early as when the first
  // file carried them.
  for (const href of hostScripts) parts.push(`<link rel="preload" as="script" href="${escapeHtml(href)}" fetchpriority="low">`);
  const remote = manifest ? remoteForPath(manifest.remotes, `/${path}`) : undefined;
  if (remote?.integrity) {
    for (const [href, integrity] of Object.entries(remote.integrity)) {
      // Chromium ignores (and warns about) integrity on a fetch preload: the fetch that uses it
      // checks the digest itself (host/src/federation/runtimePlugin.ts).
      parts.push(
        href.endsWith('.js')
          ? `<link rel="preload" as="script" href="${escapeHtml(href)}" integrity="${escapeHtml(integrity)}" crossorigin="anonymous">`
          : `<link rel="preload" as="fetch" href="${escapeHtml(href)}" crossorigin="anonymous">`,
      );
    }
  }
  return parts.join('');
}

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

/** The host build's list of its own pages' scripts by address (see bootHead). */
export const PAGE_PRELOADS = 'page-preloads.json';

/** page-preloads.json: an object of addresses, each a list of the scripts' paths on this server. */
function parsePagePreloads(text: string): Readonly<Record<string, readonly string[]>> {
  const value: unknown = JSON.parse(text);
  const ok =
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((files) => Array.isArray(files) && files.every((file) => typeof file === 'string' && /^\/[\w.-]+\.js$/.test(file)));
  if (!ok) throw new Error(`${PAGE_PRELOADS} is not a list of the host's scripts by address`);
  return value as Record<string, readonly string[]>;
}

/** A file of the build, read and parsed again only when it changes (a new build while the server runs). */
function builtFile<T>(file: string, parse: (text: string) => T): () => Promise<T> {
  let cached: { key: string; value: T } | undefined;
  return async () => {
    const info = await stat(file);
    const key = `${info.size}:${info.mtimeMs}`;
    if (cached?.key !== key) cached = { key, value: parse(await readFile(file, 'utf8')) };
    return cached.value;
  };
}

export const hostRoutes: FastifyPluginAsyncTypebox<HostRouteOptions> = async (app, options) => {
  const { hostDir, devRemotes } = options;

  // index.html as built, read again when it changes (a new build while the server runs).
  const indexHtml = builtFile(join(hostDir, 'index.html'), (text) => text);
  // The scripts of the host's own pages by address (shared/build/federation.cjs, PreloadChunksPlugin):
  // none when the build has no such file or it is not such a list (the page then loads them
  // itself). A list that does not parse is said once, until the file changes.
  const pagePreloads = builtFile(join(hostDir, PAGE_PRELOADS), (text) => {
    try {
      return parsePagePreloads(text);
    } catch (error) {
      app.log.warn({ err: error }, `${PAGE_PRELOADS} could not be read: the first HTML hints at no page scripts`);
      return {};
    }
  });
  const hostScriptsFor = async (path: string): Promise<readonly string[]> => {
    try {
      const byPath = await pagePreloads();
      return Object.hasOwn(byPath, `/${path}`) ? (byPath[`/${path}`] ?? []) : [];
    } catch (error) {
      // No such file in this build is no news (it is read once there is one).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') app.log.warn({ err: error }, `${PAGE_PRELOADS} could not be read: the first HTML hints at no page scripts`);
      return [];
    }
  };

  // The page's Content-Security-Policy: published remotes are served by this server; only a
  // developer's override loads from another origin.
  const policy = pagePolicy(remoteOrigins(Object.values(devRemotes)));
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply, path: string): Promise<FastifyReply> => {
    let manifest: ResolvedEnvironmentManifest | undefined;
    let signIn: BootSignIn = {};
    try {
      const session = await request.portalSession();
      // As GET /sessions/current and GET /xsrf would answer. A session of a locked or closed
      // account is nobody's, and its token is not handed out: GET /xsrf replaces that session.
      const usable = session !== undefined && !session.refused;
      signIn = {
        session: session?.account ? { username: session.account.username, permissions: [...session.account.permissions] } : null,
        ...(usable ? { xsrf: await xsrfTokenOf(app.security, session.id) } : {}),
      };
      const previewSession = session?.account?.permissions.includes('MANAGE_REMOTES') ? session.idHash : undefined;
      manifest = await servedManifest(app.db, options.environment(), { devRemotes, ...(previewSession ? { previewSession } : {}) });
    } catch (error) {
      // The page still loads; the host asks for /environment.json (and who is signed in) itself, and says what fails.
      request.log.error({ err: error }, 'the first HTML carries no pins: the database did not answer');
    }
    const hostScripts = await hostScriptsFor(path);
    const html = startupBar(await indexHtml(), app.portalConfig)
      // A function, not a string: `$` in the configuration is not a replacement pattern.
      .replace('</head>', () => `${bootHead(path, app.portalConfig, manifest, signIn, hostScripts)}</head>`);
    return reply.header('cache-control', CACHE_NEVER).header('content-security-policy', policy).type('text/html; charset=utf-8').send(html);
  };

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
      if (requested === '' || requested === 'index.html') return sendIndex(request, reply, '');
      const path = safeRelativePath(requested);
      if (path === undefined) return reply.callNotFound();
      if (await isFile(join(hostDir, path))) {
        reply.header('cache-control', cacheControlFor(basename(path)));
        return reply.sendFile(path, hostDir);
      }
      if (!ASSET.test(path) && acceptsHtml(request)) return sendIndex(request, reply, path);
      return reply.callNotFound();
    },
  );
};
