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
import { remoteEntryPath, remoteFilePath, servedManifest } from '../services/federation.js';
import { RECORD_FILE, versionFolder } from '../services/remote-store.js';
import { xsrfTokenOf } from '../services/sessions.js';
import { CACHE_NEVER, cacheControlFor, isFile, safeRelativePath } from '../services/static-files.js';

export interface HostRouteOptions {
  hostDir: string;
  /** The environment this server serves (for the pins the first HTML carries). */
  environment: () => string;
  /** The developer overrides: the only remotes loaded from elsewhere than this server (the page's policy). */
  devRemotes: Readonly<Record<string, string>>;
  /** The remote store (each published version's portal-remote.json says what its first page loads). */
  storeDir: string;
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
 * first paint has the page's first words (an earlier first contentful paint), while the scripts are
 * on their way. host/src/StartupSkeleton.tsx draws the same until the shell has loaded.
 */
export function startupBar(html: string, configuration: Pick<PortalConfiguration, 'brand'>): string {
  return html.replace(STARTUP_BAR, (_, open: string, close: string) => `${open}<span class="startup-brand">${escapeHtml(brandName(configuration))}</span>${close}`);
}

/** The cookie of the reader's light/dark choice (host/src/shell/theme.ts, THEME_COOKIE; remembered in local storage there). */
export const THEME_COOKIE = 'portal-theme';

/**
 * The theme of the startup frame, which index.html paints before any script runs (no inline
 * script may read the reader's choice there): the reader's remembered choice (its cookie), else
 * the configured css_theme when it names one; else none, and the reader's system setting decides.
 */
export function frameTheme(cookie: string | undefined, configuration: Pick<PortalConfiguration, 'css_theme'>): 'light' | 'dark' | undefined {
  for (const value of [cookie, configuration.css_theme]) if (value === 'light' || value === 'dark') return value;
  return undefined;
}

/** index.html's <html> marked with the frame's theme (data-theme), which its styles follow. */
export function themeFrame(html: string, theme: 'light' | 'dark' | undefined): string {
  return theme ? html.replace(/<html\b/, `<html data-theme="${theme}"`) : html;
}

/** Who the first HTML says is signed in, and the session's anti-forgery token (see BootData). */
export type BootSignIn = Pick<BootData, 'session' | 'xsrf'>;

/**
 * What the first HTML carries so that the page needs no round trip before its content: the
 * configuration and the environment's pins (as /accounts/rest/configuration and
 * /environment.json answer them), who is signed in with the session's anti-forgery token (as
 * /sessions/current and /xsrf answer them), and preload hints for the scripts of the page: a page
 * of the host's own beyond the shell, or the routes of the remote that owns the path with the
 * host's files of the shared modules they consume (`hostScripts`, see pageScripts), and the
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
  // The remote's entry, as the host's runtime loads it: with its digest, in CORS mode.
  if (remote?.integrity) {
    for (const [href, integrity] of Object.entries(remote.integrity)) {
      if (href.endsWith('.js')) parts.push(`<link rel="preload" as="script" href="${escapeHtml(href)}" integrity="${escapeHtml(integrity)}" crossorigin="anonymous">`);
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
/** The host build's list of the scripts each shared module it provides loads, by share key (shared/build/federation.cjs). */
export const SHARED_PRELOADS = 'shared-preloads.json';

/** page-preloads.json and shared-preloads.json: an object of keys, each a list of the scripts' paths on this server. */
function parseScriptLists(file: string, text: string): Readonly<Record<string, readonly string[]>> {
  const value: unknown = JSON.parse(text);
  const ok =
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((files) => Array.isArray(files) && files.every((entry) => typeof entry === 'string' && /^\/[\w.-]+\.js$/.test(entry)));
  if (!ok) throw new Error(`${file} is not a list of the host's scripts by key`);
  return value as Record<string, readonly string[]>;
}

/** What a remote's build says its first page loads after its entry (portal-remote.json's `firstLoad`). */
interface FirstLoad {
  /** Files of the build's folder: its exposed routes. */
  scripts: readonly string[];
  /** The shared modules their code consumes (the host provides them). */
  shared: readonly string[];
}

const NOTHING_FIRST: FirstLoad = { scripts: [], shared: [] };

/** portal-remote.json's `firstLoad`; nothing when the build (built before it was written) has none or one of another shape. */
function parseFirstLoad(text: string): FirstLoad {
  const { firstLoad } = JSON.parse(text) as { firstLoad?: { scripts?: unknown; shared?: unknown } };
  const strings = (value: unknown, pattern: RegExp): value is string[] => Array.isArray(value) && value.every((entry) => typeof entry === 'string' && pattern.test(entry));
  if (!firstLoad || !strings(firstLoad.scripts, /^[\w.-]+\.js$/) || !strings(firstLoad.shared, /^[@\w./-]+$/)) return NOTHING_FIRST;
  return { scripts: firstLoad.scripts, shared: firstLoad.shared };
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
  const { hostDir, devRemotes, storeDir } = options;

  // index.html as built, read again when it changes (a new build while the server runs).
  const indexHtml = builtFile(join(hostDir, 'index.html'), (text) => text);
  // A list of the build's scripts: none is used when the build has no such file or it is not such
  // a list (the page then loads those scripts itself, only later); one that does not parse is said
  // once, until the file changes.
  const scriptLists = (file: string) =>
    builtFile(join(hostDir, file), (text) => {
      try {
        return parseScriptLists(file, text);
      } catch (error) {
        app.log.warn({ err: error }, `${file} could not be read: the first HTML hints at none of its scripts`);
        return {};
      }
    });
  /** The list as it is now (one look at the file: a page load reads it once, however many keys it looks up). */
  const current = async (list: () => Promise<Readonly<Record<string, readonly string[]>>>, file: string) => {
    try {
      const byKey = await list();
      return (key: string): readonly string[] => (Object.hasOwn(byKey, key) ? (byKey[key] ?? []) : []);
    } catch (error) {
      // No such file in this build is no news (it is read once there is one).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') app.log.warn({ err: error }, `${file} could not be read: the first HTML hints at none of its scripts`);
      return (): readonly string[] => [];
    }
  };
  // The scripts of the host's own pages by address, and those each shared module the host provides
  // loads (shared/build/federation.cjs, PreloadChunksPlugin).
  const pagePreloads = scriptLists(PAGE_PRELOADS);
  const sharedPreloads = scriptLists(SHARED_PRELOADS);
  // Each published version's portal-remote.json, read again only when it changes (a version
  // published again).
  const firstLoads = new Map<string, () => Promise<FirstLoad>>();
  const firstLoadOf = async (name: string, version: string): Promise<FirstLoad> => {
    const file = join(versionFolder(storeDir, name, version), RECORD_FILE);
    const unread = (error: unknown): FirstLoad => {
      app.log.warn({ err: error, remote: `${name} ${version}` }, `${RECORD_FILE} could not be read: the first HTML hints at none of the remote's routes`);
      return NOTHING_FIRST;
    };
    let read = firstLoads.get(file);
    if (!read) {
      read = builtFile(file, (text) => {
        try {
          return parseFirstLoad(text);
        } catch (error) {
          return unread(error); // said once, until the file changes
        }
      });
      firstLoads.set(file, read);
    }
    try {
      return await read();
    } catch (error) {
      // A store without the version's files says nothing here (ServedFileCheck says so where they are served).
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? NOTHING_FIRST : unread(error);
    }
  };
  /**
   * The scripts the page at `path` loads after the first file and the shell, hinted at low
   * priority: a page of the host's own (the sign-in page), or the remote's routes that own the path
   * and the host's files of the shared modules they consume (antd's parts), which the page would
   * otherwise ask for only once the first file has run and the remote's entry has loaded. Only
   * for a remote this server serves (not a developer's override).
   */
  const pageScripts = async (path: string, manifest: ResolvedEnvironmentManifest | undefined): Promise<readonly string[]> => {
    const own = (await current(pagePreloads, PAGE_PRELOADS))(`/${path}`);
    const remote = manifest ? remoteForPath(manifest.remotes, `/${path}`) : undefined;
    const version = remote?.version;
    if (!remote || version === undefined || remote.entry !== remoteEntryPath(remote.name, version)) return own;
    const first = await firstLoadOf(remote.name, version);
    const filesOf = await current(sharedPreloads, SHARED_PRELOADS);
    return [...new Set([...own, ...first.scripts.map((file) => remoteFilePath(remote.name, version, file)), ...first.shared.flatMap(filesOf)])];
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
    const hostScripts = await pageScripts(path, manifest);
    const theme = frameTheme(request.cookies[THEME_COOKIE], app.portalConfig);
    const html = themeFrame(startupBar(await indexHtml(), app.portalConfig), theme)
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
