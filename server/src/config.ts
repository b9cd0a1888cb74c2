/**
 * Settings, declared as two TypeBox schemas: the portal configuration (spec section 3) and the
 * server settings. Each setting's schema is the type of its value (the interfaces below are
 * derived from it), with its environment variable, its default and what it means; README's
 * configuration tables are made from them (config-docs.ts). TypeBox's Value functions give the
 * defaults, convert numbers and check every value read; where environment text is more than a
 * value (a list, a path, JSON), the schema's `text` reads it and says what is wrong in words.
 *
 * Layers: the default → the JSON file named by PORTAL_CONFIG_FILE (portal configuration only) →
 * the environment (a blank variable counts as unset); then the rules between settings. Every
 * problem is collected and reported together in one ConfigError, each line naming the key or
 * variable at fault.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import Type, { type Static, type TProperties, type TSchema } from 'typebox';
import Value from 'typebox/value';
import {
  CONFIGURATION_KEYS,
  CSS_THEMES,
  DEFAULT_CONFIGURATION,
  originOf,
  SERVICES,
  serviceOrigins,
  supportedServices,
  type ConfigurationKey,
  type PortalConfiguration,
} from '@portal/api';
import { REMOTE_NAME } from '@portal/shared/contract';
import { REPO_DIR, SERVER_DIR } from './paths.js';
import { LIST_ENGINES } from './services/lists/engine.js';
import { isMailAddress } from './services/mail-address.js';
import { DEFAULT_RATE_LIMITS, DEFAULT_SESSION_RATE_LIMIT, parseRateLimit, parseRateLimits, type RateLimit, type RateLimits } from './services/rate-limits.js';

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * PBKDF2/SHA-256 iterations per attempt of the bot challenge. About 256 attempts are needed on
 * average (key prefix '00'); at 5000 a 2-core machine solves it in ~0.3 s on average (node,
 * one thread) and well under 2 s in 99 % of challenges.
 */
export const DEFAULT_CHALLENGE_COST = 5000;

/** How often the mail worker looks for due mail (PORTAL_MAIL_POLL_MS), in milliseconds. */
export const DEFAULT_MAIL_POLL_MS = 2000;

/**
 * Mail domains of the large free providers (PORTAL_PERSONAL_EMAIL_DOMAINS replaces the list):
 * an account request from such an address is refused (a work address is required). A domain
 * also covers its subdomains.
 */
export const DEFAULT_PERSONAL_EMAIL_DOMAINS: readonly string[] = [
  'aol.com', 'gmail.com', 'googlemail.com', 'gmx.com', 'gmx.de', 'gmx.net', 'hotmail.com',
  'hotmail.co.uk', 'icloud.com', 'live.com', 'mac.com', 'mail.com', 'mail.ru', 'me.com', 'msn.com',
  'outlook.com', 'pm.me', 'proton.me', 'protonmail.com', 'qq.com', 'tutanota.com', 'web.de',
  'yahoo.co.uk', 'yahoo.com', 'yandex.com', 'yandex.ru', 'ymail.com', 'zoho.com',
];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const TOKEN_ISSUERS = ['embedded', 'artifactory'] as const;

/** The environment variable that sets a configuration key: cac_support → PORTAL_CAC_SUPPORT. */
export function envVarFor(key: ConfigurationKey): string {
  return `PORTAL_${key.toUpperCase()}`;
}

// ---------------------------------------------------------------------------------------------
// Kinds of value: each makes a setting's schema from its options

/** What a setting's schema carries besides its type (TypeBox keeps options it does not know). */
export interface SettingOptions {
  /** The environment variable; the portal configuration's is PORTAL_<KEY> (envVarFor). */
  env?: string;
  /** What it means, in Markdown: README's configuration tables are made from it. */
  description: string;
  /** The value when no layer gives one (put in by Value.Default). */
  default?: unknown;
  /** How README shows the default where the value would not say it. */
  defaultText?: string;
}

/** How a kind reads: `text` turns environment text (never blank), or a JSON string of the file, into the value; throws Invalid. */
interface Reading {
  text?: (text: string, cwd: string) => unknown;
}

/** Why a value is refused, one reason per bad item; the reader adds the key and where the value came from. */
class Invalid extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(reasons.join('\n'));
  }
}

function refuse(reason: string): never {
  throw new Invalid([reason]);
}

function parseBooleanText(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(word)) return true;
  if (['false', '0', 'no'].includes(word)) return false;
  return undefined;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value) ?? String(value);
}

function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** A boolean: true/false/1/0/yes/no in the environment, a JSON boolean in the file. */
const boolean = (options: SettingOptions) =>
  Type.Boolean({
    ...options,
    title: 'a boolean; use true or false',
    text: (text: string) => parseBooleanText(text) ?? refuse(`${quote(text)} is not a boolean; use true, false, 1, 0, yes or no`),
  });

/** A whole number within bounds: digits in the environment (converted by Value.Convert), a JSON number in the file. */
function integer(minimum: number, maximum: number | undefined, options: SettingOptions, title?: string) {
  return Type.Integer({
    ...options,
    minimum,
    // Unbounded still means a number JavaScript holds exactly.
    maximum: maximum ?? Number.MAX_SAFE_INTEGER,
    title: title ?? (maximum === undefined ? `a whole number of at least ${minimum}` : `a whole number from ${minimum} to ${maximum}`),
    // Digits only ('1e3' and '0x10' are refused, not read as 1000 and 16); the check below says why.
    text: (text: string) => (/^\s*\d+\s*$/.test(text) ? Value.Convert(Type.Integer(), text.trim()) : text),
  });
}

/** Text, read by `read`; in the file a JSON string, read alike. */
function text(read: (text: string, cwd: string) => string, options: SettingOptions) {
  return Type.String({ ...options, text: read });
}

const string = (options: SettingOptions) => text((value) => value, options);
const trimmed = (options: SettingOptions) => text((value) => value.trim(), options);
/** A path, relative ones resolved from the working directory. */
const path = (options: SettingOptions) => text((value, cwd) => resolve(cwd, value.trim()), options);

function oneOf<W extends string>(words: readonly W[], what: string, options: SettingOptions, anyCase = false) {
  // Unsafe<W>: TypeBox infers a union's type from a tuple, and these words are a list.
  return Type.Unsafe<W>(
    Type.Union(
      words.map((word) => Type.Literal(word)),
      {
      ...options,
      text: (value: string) => {
        const word = anyCase ? value.trim().toLowerCase() : value.trim();
        return words.find((w) => w === word) ?? refuse(`${quote(value)} is not ${what} (known: ${words.join(', ')})`);
      },
      },
    ),
  );
}

/** Comma-separated items (trimmed, blanks skipped, repeats dropped); every bad item is reported. */
function items(value: string, read: (item: string) => string | undefined): string[] {
  const found = new Set<string>();
  const reasons: string[] = [];
  for (const part of value.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    try {
      const got = read(item);
      if (got !== undefined) found.add(got);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      reasons.push(...error.reasons);
    }
  }
  if (reasons.length > 0) throw new Invalid(reasons);
  return [...found];
}

/** A list of text items: comma-separated in the environment. Read-only, as every setting. */
function list(read: (value: string) => readonly string[], options: SettingOptions) {
  return Type.Unsafe<readonly string[]>(Type.Array(Type.String(), { ...options, text: read }));
}

const environmentName = (options: SettingOptions) =>
  text(
    (value) =>
      /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(value.trim()) ? value.trim() : refuse(`${quote(value.trim())} is not an environment name (letters, digits, - and _)`),
    options,
  );

const serviceList = (options: SettingOptions) =>
  text(
    (value) =>
      items(value, (item) => SERVICES.find((id) => id === item.toLowerCase()) ?? refuse(`unknown service '${item}' (known: ${SERVICES.join(', ')})`)).join(','),
    options,
  );

/** service=origin pairs (serviceOrigins in @portal/api), kept as written once each pair is right. */
const serviceOriginList = (options: SettingOptions) =>
  text((value) => {
    const problems: string[] = [];
    const pairs = serviceOrigins({ service_origins: value }, problems);
    if (problems.length > 0) refuse(problems.join('; '));
    return pairs.map((p) => `${p.service}=${p.origin}`).join(',');
  }, options);

/** The portal configuration's URLs: http(s), or the spec's 'undefined'. */
const httpUrlOrUndefined = (options: SettingOptions) =>
  text((value) => {
    const url = value.trim();
    if (url === 'undefined') return url;
    const protocol = urlOf(url)?.protocol;
    if (protocol === undefined) refuse(`${quote(url)} is not a URL; give an http(s) URL or 'undefined'`);
    if (protocol !== 'http:' && protocol !== 'https:') refuse(`${quote(url)} is not an http(s) URL; give an http(s) URL or 'undefined'`);
    return url;
  }, options);

// The server settings' own kinds. Values that may hold a password (DATABASE_URL, SMTP_URL) are never echoed.

const ldapUrl = (options: SettingOptions) =>
  text((value) => {
    const url = urlOf(value.trim());
    if (url === undefined || !['ldap:', 'ldaps:'].includes(url.protocol) || url.hostname === '') {
      refuse(`${quote(value)} is not an LDAP address; use ldap://host:port or ldaps://host:port`);
    }
    return value.trim();
  }, options);

/** One entry of PORTAL_SCIM_TARGETS: its bearer token is given, or read from a file at start (exactly one of the two). */
const SCIM_TARGET = Type.Object({
  /** Names the target: 'scim:<name>'. */
  name: Type.String(),
  /** The SCIM base address (…/scim/v2), without a final '/'. */
  url: Type.String(),
  /** Never log it. */
  token: Type.Optional(Type.String()),
  /** A file whose first line is the token. */
  tokenFile: Type.Optional(Type.String()),
});
export type ScimTargetSetting = Static<typeof SCIM_TARGET>;

const SCIM_TARGET_EXAMPLE = '[{"name":"artifactory","url":"https://artifactory.example.test/access/api/v1/scim/v2","tokenFile":"/run/secrets/scim"}]';
const SCIM_TARGET_KEYS = ['name', 'url', 'token', 'tokenFile'];
const SCIM_TARGET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * A JSON array of SCIM services, each `{"name", "url", "token" | "tokenFile"}`. Neither the text
 * nor a token is ever echoed (a JSON error says only where it is), an address only when it holds
 * no user or password; every bad entry is reported, named by its name or its place.
 */
function readScimTargets(value: string, cwd: string): ScimTargetSetting[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    const at = /at position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    refuse(`is not valid JSON${at === undefined ? '' : ` (at position ${at})`}; give an array such as ${SCIM_TARGET_EXAMPLE}`);
  }
  if (!Array.isArray(parsed)) refuse(`must be a JSON array of targets, such as ${SCIM_TARGET_EXAMPLE}`);
  const reasons: string[] = [];
  const targets: ScimTargetSetting[] = [];
  const seen = new Map<string, number>();
  parsed.forEach((entry: unknown, index) => {
    const place = `entry ${index + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      reasons.push(`${place} is not an object with name, url and token or tokenFile`);
      return;
    }
    const fields = entry as Record<string, unknown>;
    const { name, url, token, tokenFile } = fields;
    const validName = typeof name === 'string' && SCIM_TARGET_NAME.test(name);
    const who = validName ? `entry '${name}'` : place;
    const problems: string[] = [];
    if (!validName) problems.push(`${place}: name ${name === undefined ? 'is missing' : `${quote(name)} is not a name`} (letters, digits, '.', '-' and '_', e.g. "artifactory")`);
    for (const key of Object.keys(fields)) {
      if (!SCIM_TARGET_KEYS.includes(key)) problems.push(`${who}: unknown key ${quote(key)} (known: ${SCIM_TARGET_KEYS.join(', ')})`);
    }
    const address = typeof url === 'string' ? urlOf(url.trim()) : undefined;
    if (url === undefined) problems.push(`${who}: url is missing (the SCIM base address, e.g. https://artifactory.example.test/access/api/v1/scim/v2)`);
    else if (address === undefined || !['http:', 'https:'].includes(address.protocol) || address.hostname === '') {
      const shown = typeof url === 'string' && address?.username === '' && address.password === '' ? ` ${quote(url.trim())}` : '';
      problems.push(`${who}: url${shown} is not an http(s) address`);
    } else if (address.username !== '' || address.password !== '' || address.search !== '' || address.hash !== '') {
      problems.push(`${who}: url must hold no user, password, query or fragment (the token goes in token or tokenFile)`);
    }
    if (token !== undefined && tokenFile !== undefined) problems.push(`${who}: give token or tokenFile, not both`);
    else if (token === undefined && tokenFile === undefined) problems.push(`${who}: give its bearer token (token) or a file holding it (tokenFile)`);
    else if (token !== undefined && (typeof token !== 'string' || token.trim() === '')) problems.push(`${who}: token must be non-blank text`);
    else if (tokenFile !== undefined && (typeof tokenFile !== 'string' || tokenFile.trim() === '')) problems.push(`${who}: tokenFile must be a path`);
    if (validName) {
      const first = seen.get(name.toLowerCase());
      if (first !== undefined) problems.push(`entries ${first + 1} and ${index + 1} are both named '${name}'; each target needs a name of its own`);
      else seen.set(name.toLowerCase(), index);
    }
    if (problems.length > 0) {
      reasons.push(...problems);
      return;
    }
    targets.push({
      name: name as string,
      url: (url as string).trim().replace(/\/+$/, ''),
      token: typeof token === 'string' ? token.trim() : undefined,
      tokenFile: typeof tokenFile === 'string' ? resolve(cwd, tokenFile.trim()) : undefined,
    });
  });
  if (reasons.length > 0) throw new Invalid(reasons);
  return targets;
}

const databaseUrl = (options: SettingOptions) =>
  text(
    (value) =>
      ['postgres:', 'postgresql:'].includes(urlOf(value)?.protocol ?? '')
        ? value
        : refuse('must be a postgres:// or postgresql:// URL (unset it to use the embedded database)'),
    options,
  );

const smtpUrl = (options: SettingOptions) =>
  text((value) => {
    const url = urlOf(value.trim());
    if (url === undefined || !['smtp:', 'smtps:'].includes(url.protocol) || url.hostname === '') {
      refuse('must be an smtp:// or smtps:// URL with a host, e.g. smtp://mail.example.test:587 (unset it to keep mail in the outbox)');
    }
    return value.trim();
  }, options);

const mailAddress = (options: SettingOptions) =>
  text((value) => (isMailAddress(value.trim()) ? value.trim() : refuse(`${quote(value.trim().replace(/[\r\n]/g, ' '))} is not one email address`)), options);

const publicUrl = (options: SettingOptions) =>
  text((value) => {
    const url = urlOf(value.trim());
    if (url === undefined || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password) {
      refuse(`${quote(value.trim())} is not an http(s) address without query or fragment, e.g. https://portal.example.test`);
    }
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }, options);

/** A credential of another system: any non-blank text, never echoed. */
const secretValue = (options: SettingOptions) => text((value) => (value.trim() === '' ? refuse('is blank') : value.trim()), options);

const secret = (options: SettingOptions) =>
  text((value) => (value.length >= 32 ? value : refuse('must be at least 32 characters long (or unset, for a generated one)')), options);

/** name=url,… → the remotes' replaced entries. */
const devRemotes = (options: SettingOptions) =>
  Type.Record(Type.String(), Type.String(), {
    ...options,
    text: (value: string) => {
      const remotes: Record<string, string> = {};
      items(value, (item) => {
        const at = item.indexOf('=');
        const name = at < 0 ? item : item.slice(0, at).trim();
        const entry = at < 0 ? '' : item.slice(at + 1).trim();
        if (!REMOTE_NAME.test(name)) {
          refuse(`${quote(name)} is not a remote name (expected name=url, e.g. groups=http://localhost:3102/remoteEntry.js)`);
        }
        if (!/^(https?:\/\/[^/]|\/)/.test(entry)) refuse(`the entry of '${name}' must be an http(s) URL or a path starting with /`);
        if (Object.hasOwn(remotes, name)) refuse(`'${name}' is given twice`);
        remotes[name] = entry;
        return undefined;
      });
      return remotes;
    },
  });

const RATE_LIMIT = Type.Object({ max: Type.Integer({ minimum: 1 }), windowSeconds: Type.Integer({ minimum: 1 }) });

const rateLimits = (options: SettingOptions) =>
  Type.Unsafe<RateLimits>(
    Type.Record(Type.String(), RATE_LIMIT, {
      ...options,
      text: (value: string) => {
        const limits = parseRateLimits(value);
        return typeof limits === 'string' ? refuse(limits) : limits;
      },
    }),
  );

const sessionRateLimit = (options: SettingOptions) =>
  Type.Unsafe<RateLimit>({
    ...RATE_LIMIT,
    ...options,
    text: (value: string) => {
      if (value.trim() === 'off') return undefined;
      const limit = parseRateLimit(value);
      return typeof limit === 'string' ? refuse(limit) : limit;
    },
  });

/** '::ffff:10.0.0.1' (an IPv4 peer on a dual-stack socket) → '10.0.0.1'; IPv6 in lower case. */
export function normalizeAddress(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}

const ipAddresses = (options: SettingOptions) =>
  list((value) => items(value, (item) => (isIP(item) === 0 ? refuse(`${quote(item)} is not an IP address`) : normalizeAddress(item))), options);

const DOMAIN_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Comma-separated mail domains (any case, an optional leading @); 'none' for an empty list. */
const domains = (options: SettingOptions) =>
  list((value) => {
    if (value.trim().toLowerCase() === 'none') return [];
    return items(value, (item) => {
      const domain = item.toLowerCase().replace(/^@/, '');
      if (domain === '') return undefined;
      return DOMAIN_NAME.test(domain) ? domain : refuse(`${quote(item)} is not a domain name (e.g. gmail.com; 'none' for no list)`);
    });
  }, options);

/** A cookie's Domain: a domain name of two labels or more (a leading dot is dropped), never an IP address. */
const cookieDomain = (options: SettingOptions) =>
  text((value) => {
    const domain = value.trim().toLowerCase().replace(/^\./, '');
    if (!DOMAIN_NAME.test(domain) || isIP(domain) !== 0) {
      refuse(`${quote(value.trim())} is not a domain name, e.g. example.test (the parent domain of the portal's host and the services' hosts)`);
    }
    return domain;
  }, options);

/** Whether a host name is the domain itself or inside it. */
export function isHostInDomain(host: string, domain: string): boolean {
  const name = host.toLowerCase();
  return name === domain || name.endsWith(`.${domain}`);
}

// ---------------------------------------------------------------------------------------------
// The schemas

const spec = DEFAULT_CONFIGURATION;

/** The portal configuration, served by GET /accounts/rest/configuration; defaults from spec section 8 ('undefined' is served as such). */
export const PORTAL_CONFIGURATION = Type.Object({
  cac_support: boolean({ default: spec.cac_support, description: 'smart-card (CAC) sign-in and registration are offered' }),
  auto_cert_registration_approval: boolean({ default: spec.auto_cert_registration_approval, description: 'a CAC registration is approved without an adjudicator' }),
  brand: string({ default: spec.brand, description: 'the product name shown in the top bar' }),
  email_domain: string({ default: spec.email_domain, description: 'domain of mailing-list addresses and of the help address `web@<domain>`' }),
  css_theme: oneOf(CSS_THEMES, 'a theme', { default: spec.css_theme, description: "`light`, `dark`, or `undefined`: follow the reader's system setting" }),
  wiki_url: httpUrlOrUndefined({ default: spec.wiki_url, description: 'where users go after sign-in without a redirect; the brand links there' }),
  login_logo_filename: string({ default: spec.login_logo_filename, description: 'logo on the sign-in page' }),
  show_login_agreement: boolean({ default: spec.show_login_agreement, description: 'an agreement must be accepted before signing in' }),
  login_agreement_filename: string({ default: spec.login_agreement_filename, description: "the agreement's text" }),
  supported_services: serviceList({ default: spec.supported_services, description: `comma-separated: ${SERVICES.map((s) => `\`${s}\``).join(', ')}` }),
  artifacts_token_max_expiry: integer(1, undefined, { default: spec.artifacts_token_max_expiry, description: 'longest token lifetime a user may choose, in days' }),
  artifacts_token_default_expiry: integer(1, undefined, { default: spec.artifacts_token_default_expiry, description: 'the lifetime proposed, in days (at most the maximum)' }),
  artifacts_token_revocable_expiry: integer(1, undefined, {
    default: spec.artifacts_token_revocable_expiry,
    description: 'tokens with a shorter lifetime, in hours, cannot be revoked (at most the maximum)',
  }),
  artifacts_profile_url: httpUrlOrUndefined({ default: spec.artifacts_profile_url, description: "the artifact repository's profile page" }),
  bitbucket_url: httpUrlOrUndefined({
    default: spec.bitbucket_url,
    description: "the portal's own: the source host's address; its token pages are linked from /tokens/services (`undefined`: its origin in `service_origins`)",
  }),
  jira_url: httpUrlOrUndefined({
    default: spec.jira_url,
    description: "the portal's own: the issue tracker's address; its token page is linked from /tokens/services (`undefined`: its origin in `service_origins`)",
  }),
  login_help_url: httpUrlOrUndefined({
    default: spec.login_help_url,
    description: "the portal's own: the page /login's \"Login help\" opens; `undefined`: the wiki's `display/WEB/Login+Help` page (no link without a wiki)",
  }),
  service_origins: serviceOriginList({
    default: spec.service_origins,
    description:
      "the portal's own: `service=origin` pairs (`jira=https://jira.example.test,bitbucket=https://code.example.test`), the platform services a sign-in's `redirect` may send the user back to ([server/docs/self-service.md](server/docs/self-service.md), \"Sign-in redirects\"); `server/config/demo.json` names one for each demo service",
  }),
});

// The schema says what @portal/api's interface says: a key added to one and not the other fails the type check.
const samePortalConfiguration: [Static<typeof PORTAL_CONFIGURATION>, PortalConfiguration] extends [PortalConfiguration, Static<typeof PORTAL_CONFIGURATION>] ? true : false = true;
void samePortalConfiguration;

/** The server settings, from the environment only. Problems are reported in this order, and a default sees the settings before it. */
export const SERVER_SETTINGS = Type.Object({
  databaseUrl: Type.Optional(databaseUrl({ env: 'DATABASE_URL', description: '`postgres://…` / `postgresql://…`: use PostgreSQL; unset: the embedded PGlite' })),
  dataDir: path({ env: 'PORTAL_DATA_DIR', defaultText: '`<cwd>/data`', description: "the embedded database's folder (locked by `portal.lock` while open)" }),
  environment: environmentName({ env: 'PORTAL_ENVIRONMENT', default: 'local', description: "the environment's name, choosing its manifest" }),
  environmentManifest: path({ env: 'PORTAL_ENVIRONMENT_MANIFEST', defaultText: '`server/environments/<environment>.json`', description: 'the manifest file' }),
  nodeEnv: trimmed({ env: 'NODE_ENV', default: 'development', description: '`production` turns demo data off by default' }),
  logLevel: oneOf(LOG_LEVELS, 'a log level', { env: 'LOG_LEVEL', default: 'info', description: `the least severe level logged: ${LOG_LEVELS.map((l) => `\`${l}\``).join(', ')}` }, true),
  seedDemo: boolean({
    env: 'PORTAL_SEED_DEMO',
    defaultText: '`true` on the embedded database outside production, else `false`',
    description: 'create the demo accounts (only into a database without accounts)',
  }),
  tlsCert: Type.Optional(path({ env: 'PORTAL_TLS_CERT', description: "PEM file of the server's certificate: set it and `PORTAL_TLS_KEY` to listen with HTTPS" })),
  tlsKey: Type.Optional(path({ env: 'PORTAL_TLS_KEY', description: "PEM file of the server's key: set it and `PORTAL_TLS_CERT` to listen with HTTPS" })),
  tlsClientCa: Type.Optional(
    path({
      env: 'PORTAL_TLS_CLIENT_CA',
      description: 'PEM CA bundle for smart-card client certificates (needs HTTPS): the listener asks for a certificate but lets people without one in',
    }),
  ),
  challengeSecret: Type.Optional(
    secret({
      env: 'PORTAL_CHALLENGE_SECRET',
      description:
        'HMAC secret of the bot challenge (≥ 32 characters); unset: a random secret generated once and stored in the database (`server_secrets`), shared by every server process',
    }),
  ),
  port: integer(0, 65535, { env: 'PORT', default: 8080, description: 'port to listen on (`0`: any free port)' }, 'a port number (0 to 65535)'),
  host: trimmed({ env: 'HOST', default: 'localhost', description: 'address to listen on (`0.0.0.0` for every interface)' }),
  hostDir: path({ env: 'PORTAL_HOST_DIR', default: join(REPO_DIR, 'host', 'dist'), defaultText: '`host/dist`', description: 'the host build served at `/`' }),
  remotesDir: Type.Optional(
    path({
      env: 'PORTAL_REMOTES_DIR',
      description:
        'the remote store, `<dir>/<name>/<version>/` (a folder every server shares); unset: `<data dir>/remotes`, and each start publishes the workspace builds into it ([docs/federation.md](docs/federation.md))',
    }),
  ),
  devRemotes: devRemotes({
    env: 'PORTAL_DEV_REMOTES',
    default: {},
    description:
      "`name=url,…`: replace a remote's entry in `/environment.json`, e.g. `groups=http://localhost:3102/remoteEntry.js` to work on one remote with its dev server (a URL of its `mf-manifest.json` stands for the `remoteEntry.js` beside it)",
  }),
  loginMaxFailures: integer(1, 1000, { env: 'PORTAL_LOGIN_MAX_FAILURES', default: 5, description: 'failed sign-ins per identifier that lock the account' }),
  challengeCost: integer(1, 10_000_000, {
    env: 'PORTAL_CHALLENGE_COST',
    default: DEFAULT_CHALLENGE_COST,
    description: 'PBKDF2 iterations per attempt of the bot challenge (tests use 1)',
  }),
  sessionIdleMinutes: integer(1, 60 * 24 * 30, { env: 'PORTAL_SESSION_IDLE_MINUTES', default: 30, description: 'a session unused this long ends' }),
  sessionAbsoluteHours: integer(1, 24 * 365, { env: 'PORTAL_SESSION_ABSOLUTE_HOURS', default: 12, description: 'a session ends this long after sign-in, used or not' }),
  trustedProxies: ipAddresses({
    env: 'PORTAL_TRUSTED_PROXIES',
    default: [],
    description:
      'comma-separated IP addresses of reverse proxies whose `X-Client-Cert`/`X-Client-Verify` and `X-Forwarded-Proto` headers are believed; from any other address they are ignored',
  }),
  rateLimits: rateLimits({
    env: 'PORTAL_RATE_LIMITS',
    default: DEFAULT_RATE_LIMITS,
    defaultText: 'the table in [operations.md](docs/operations.md#rate-limits)',
    description:
      '`name=calls/seconds,…`: changes the limits it names (the others keep their defaults), per client address, counted together by every server; `name=off` turns one off; `off` alone turns every one off',
  }),
  sessionRateLimit: Type.Optional(
    sessionRateLimit({
      env: 'PORTAL_SESSION_RATE_LIMIT',
      default: DEFAULT_SESSION_RATE_LIMIT,
      defaultText: `\`${DEFAULT_SESSION_RATE_LIMIT.max}/${DEFAULT_SESSION_RATE_LIMIT.windowSeconds}\``,
      description: '`calls/seconds`: the calls one signed-in session may make, counted by each server; `off`: none',
    }),
  ),
  smtpUrl: Type.Optional(
    smtpUrl({
      env: 'SMTP_URL',
      description:
        '`smtp://[user:password@]host[:port]` (STARTTLS when the server offers it) or `smtps://…`: deliver mail over SMTP; unset: mail stays in the outbox ([operations.md](docs/operations.md#mail)). Its value is never echoed or logged',
    }),
  ),
  mailFrom: Type.Optional(
    mailAddress({
      env: 'MAIL_FROM',
      defaultText: '`web@<email_domain>`',
      description: 'the sender of every mail: one plain address (`email_domain` from the portal configuration)',
    }),
  ),
  mailPollMs: integer(1, 3_600_000, { env: 'PORTAL_MAIL_POLL_MS', default: DEFAULT_MAIL_POLL_MS, description: 'how often, in milliseconds, the mail worker looks for mail to send' }),
  personalEmailDomains: domains({
    env: 'PORTAL_PERSONAL_EMAIL_DOMAINS',
    default: DEFAULT_PERSONAL_EMAIL_DOMAINS,
    defaultText: 'the large free providers (`gmail.com`, `yahoo.com`, `outlook.com` …: `DEFAULT_PERSONAL_EMAIL_DOMAINS` in `server/src/config.ts`)',
    description:
      'comma-separated mail domains an account request may not use (a domain covers its subdomains; any letter case); replaces the default list; `none`: no list',
  }),
  publicUrl: Type.Optional(
    publicUrl({
      env: 'PORTAL_PUBLIC_URL',
      description:
        "the portal's address for links in mail and the redirects of forward auth (e.g. `https://portal.example.test`, optionally with a path); unset: the scheme and `Host` header of the request, so set it in production, since `Host` is the client's to choose",
    }),
  ),
  cookieDomain: Type.Optional(
    cookieDomain({
      env: 'PORTAL_COOKIE_DOMAIN',
      description:
        "a parent domain of the portal's host (needs `PORTAL_PUBLIC_URL` inside it): the session cookie is sent to its sibling hosts, so their reverse proxies can ask forward auth who the user is ([service-sign-in.md](server/docs/service-sign-in.md))",
    }),
  ),
  tokenIssuer: oneOf(TOKEN_ISSUERS, 'a token issuer', {
    env: 'PORTAL_TOKEN_ISSUER',
    default: 'embedded',
    description:
      'who issues artifact-repository tokens: `embedded` (the portal; services check tokens at `POST /oauth2/introspect`) or `artifactory` (JFrog Artifactory\'s Access Tokens API); see [tokens.md](server/docs/tokens.md)',
  }),
  artifactoryUrl: Type.Optional(publicUrl({ env: 'ARTIFACTORY_URL', description: 'with `artifactory`: its address, e.g. `https://artifacts.example.test`' })),
  artifactoryAdminToken: Type.Optional(secretValue({ env: 'ARTIFACTORY_ADMIN_TOKEN', description: 'with `artifactory`: an admin-scoped access token (never logged or echoed)' })),
  tokenMaintenanceMs: integer(1000, 86_400_000, {
    env: 'PORTAL_TOKEN_MAINTENANCE_MS',
    default: 60_000,
    description: 'how often, in milliseconds, the 7-day expiry mails are queued and unconfirmed revocations retried',
  }),
  listSmtpHost: trimmed({
    env: 'PORTAL_LIST_SMTP_HOST',
    default: '127.0.0.1',
    description: "the address the mailing lists' SMTP listener listens on (posts to list addresses arrive there; [mailing-lists.md](server/docs/mailing-lists.md))",
  }),
  listSmtpPort: integer(0, 65535, { env: 'PORTAL_LIST_SMTP_PORT', default: 2525, description: 'its port (`0`: any free port)' }, 'a port number (0 to 65535)'),
  listMaxMessageBytes: integer(1024, 100 * 1024 * 1024, {
    env: 'PORTAL_LIST_MAX_MESSAGE_BYTES',
    default: 1024 * 1024,
    description: 'the largest post a list accepts; a larger one is refused during the SMTP conversation (552)',
  }),
  listEngine: oneOf(LIST_ENGINES, 'a list engine', {
    env: 'PORTAL_LIST_ENGINE',
    default: 'embedded',
    description:
      'what runs the mailing lists: `embedded` (the portal: the SMTP listener above, delivery through the outbox, its digests) or `mailman` (a Mailman 3 core, over its REST API; the portal then starts no SMTP listener and sends no digests); see [mailing-lists.md](server/docs/mailing-lists.md#list-engines)',
  }),
  mailmanUrl: Type.Optional(
    publicUrl({
      env: 'PORTAL_MAILMAN_URL',
      description: "with `mailman`: Mailman core's REST address, e.g. `http://127.0.0.1:8001` (its `[webservice]`; the portal speaks API 3.1 under it)",
    }),
  ),
  mailmanUser: Type.Optional(secretValue({ env: 'PORTAL_MAILMAN_USER', description: "with `mailman`: the REST API's `admin_user`" })),
  mailmanPassword: Type.Optional(secretValue({ env: 'PORTAL_MAILMAN_PASSWORD', description: "with `mailman`: the REST API's `admin_pass` (never logged or echoed)" })),
  ldapUrl: Type.Optional(
    ldapUrl({
      env: 'PORTAL_LDAP_URL',
      description:
        "the LDAP directory the portal keeps in step with its accounts and groups, for the platform's services to read, `ldap://` or `ldaps://` ([provisioning.md](docs/provisioning.md)); unset: none",
    }),
  ),
  ldapBindDn: Type.Optional(trimmed({ env: 'PORTAL_LDAP_BIND_DN', description: 'the directory: the DN the portal binds as (it writes under `PORTAL_LDAP_BASE_DN`)' })),
  ldapBindPassword: Type.Optional(
    secretValue({ env: 'PORTAL_LDAP_BIND_PASSWORD', description: "the directory: the bind DN's password (never logged or shown)" }),
  ),
  ldapBindPasswordFile: Type.Optional(
    path({ env: 'PORTAL_LDAP_BIND_PASSWORD_FILE', description: "the directory: a file whose first line is the bind DN's password (instead of `PORTAL_LDAP_BIND_PASSWORD`)" }),
  ),
  ldapBaseDn: Type.Optional(
    trimmed({ env: 'PORTAL_LDAP_BASE_DN', description: 'the directory: the entry under which the portal keeps `ou=people` and `ou=groups`, e.g. `dc=example,dc=test`' }),
  ),
  ldapPrune: boolean({
    env: 'PORTAL_LDAP_PRUNE',
    default: false,
    description: 'the directory: delete entries under `ou=people` and `ou=groups` that the portal does not know (`false`: report them only)',
  }),
  scimTargets: Type.Array(SCIM_TARGET, {
    env: 'PORTAL_SCIM_TARGETS',
    default: [],
    description:
      'the SCIM 2.0 services the portal keeps in step ([provisioning.md](docs/provisioning.md)): a JSON array of `{"name", "url", "token" or "tokenFile"}`; tokens are never logged or shown',
    text: readScimTargets,
  }),
  provisioningReconcileMinutes: integer(1, 24 * 60, {
    env: 'PORTAL_PROVISIONING_RECONCILE_MINUTES',
    default: 10,
    description: "how often each provisioning target (the directory, SCIM services, Mailman's rosters) is compared with the portal and repaired, in minutes",
  }),
  provisioningHistoryDays: integer(1, 36_500, {
    env: 'PORTAL_PROVISIONING_HISTORY_DAYS',
    default: 30,
    description: 'how long the provisioning history (failures, retries, reconciles) is kept, in days',
  }),
  purgeIntervalMs: integer(1000, 86_400_000, {
    env: 'PORTAL_PURGE_INTERVAL_MS',
    default: 600_000,
    description: 'how often, in milliseconds, every server process deletes the rows past their retention ([operations.md](docs/operations.md#retention))',
  }),
  loginFailureRetentionHours: integer(1, 24 * 365, {
    env: 'PORTAL_LOGIN_FAILURE_RETENTION_HOURS',
    default: 24,
    description: "a failed sign-in count below `PORTAL_LOGIN_MAX_FAILURES` is forgotten this long after its last failure, an account's and an unknown identifier's alike",
  }),
  lockedIdentifierRetentionDays: integer(0, 36_500, {
    env: 'PORTAL_LOCKED_IDENTIFIER_RETENTION_DAYS',
    default: 0,
    description:
      'an unknown identifier that reached `PORTAL_LOGIN_MAX_FAILURES` (answering 423 like a locked account) is forgotten this long after its last failure; `0`: never, as a locked account stays locked until unlocked',
  }),
  verificationCodeRetentionHours: integer(1, 24 * 365, {
    env: 'PORTAL_VERIFICATION_CODE_RETENTION_HOURS',
    default: 24,
    description: "verification codes are deleted this long after they were asked for (at least the hour the 5-sends limit counts)",
  }),
  sentMailRetentionDays: integer(1, 36_500, {
    env: 'PORTAL_SENT_MAIL_RETENTION_DAYS',
    default: 30,
    description: 'sent mail is deleted from the outbox this long after it was sent; unsent mail never is',
  }),
});

export type ServerSettings = Static<typeof SERVER_SETTINGS>;

/** Defaults computed from the settings before them and the working directory. */
const SERVER_DEFAULTS: { readonly [K in keyof ServerSettings]?: (read: Partial<ServerSettings>, cwd: string) => ServerSettings[K] } = {
  dataDir: (_, cwd) => resolve(cwd, 'data'),
  environmentManifest: ({ environment }) => join(SERVER_DIR, 'environments', `${environment}.json`),
  seedDemo: ({ databaseUrl, nodeEnv }) => databaseUrl === undefined && nodeEnv !== 'production',
};

/** A rule between settings, checked once every layer of its setting is read and the settings it uses are valid: the problem, naming the keys at fault, or undefined. */
interface Rule<T> {
  uses?: readonly (keyof T)[];
  check(read: Readonly<T>): string | undefined;
}
type Rules<T> = { readonly [K in keyof T]?: Rule<T> };

const PORTAL_RULES: Rules<PortalConfiguration> = {
  artifacts_token_default_expiry: {
    uses: ['artifacts_token_max_expiry'],
    check: ({ artifacts_token_default_expiry: days, artifacts_token_max_expiry: max }) =>
      days > max ? `artifacts_token_default_expiry: ${days} is more than artifacts_token_max_expiry (${max})` : undefined,
  },
  artifacts_token_revocable_expiry: {
    uses: ['artifacts_token_max_expiry'],
    check: ({ artifacts_token_revocable_expiry: hours, artifacts_token_max_expiry: max }) =>
      hours > max * 24
        ? `artifacts_token_revocable_expiry: ${hours} hours is longer than artifacts_token_max_expiry (${max} days = ${max * 24} hours)`
        : undefined,
  },
};

const SERVER_RULES: Rules<ServerSettings> = {
  tlsKey: {
    check: ({ tlsCert, tlsKey }) =>
      (tlsCert === undefined) !== (tlsKey === undefined) ? 'PORTAL_TLS_CERT, PORTAL_TLS_KEY: set both (HTTPS) or neither (HTTP)' : undefined,
  },
  tlsClientCa: {
    check: ({ tlsClientCa, tlsCert }) =>
      tlsClientCa !== undefined && tlsCert === undefined ? 'PORTAL_TLS_CLIENT_CA: needs HTTPS (PORTAL_TLS_CERT and PORTAL_TLS_KEY)' : undefined,
  },
  cookieDomain: {
    uses: ['publicUrl'],
    check: ({ cookieDomain, publicUrl }) => {
      if (cookieDomain === undefined) return undefined;
      if (publicUrl === undefined) return `PORTAL_COOKIE_DOMAIN: needs PORTAL_PUBLIC_URL (the portal's address, whose host must be inside ${cookieDomain})`;
      const host = new URL(publicUrl).hostname;
      return isHostInDomain(host, cookieDomain)
        ? undefined
        : `PORTAL_COOKIE_DOMAIN: the portal's host ${host} (PORTAL_PUBLIC_URL) is not inside ${cookieDomain}, so its session cookie could not be set there`;
    },
  },
  artifactoryAdminToken: {
    check: ({ tokenIssuer, artifactoryUrl, artifactoryAdminToken }) =>
      tokenIssuer === 'artifactory' && (artifactoryUrl === undefined || artifactoryAdminToken === undefined)
        ? 'PORTAL_TOKEN_ISSUER=artifactory needs ARTIFACTORY_URL and ARTIFACTORY_ADMIN_TOKEN'
        : undefined,
  },
  mailmanPassword: {
    check: ({ listEngine, mailmanUrl, mailmanUser, mailmanPassword }) =>
      listEngine === 'mailman' && (mailmanUrl === undefined || mailmanUser === undefined || mailmanPassword === undefined)
        ? 'PORTAL_LIST_ENGINE=mailman needs PORTAL_MAILMAN_URL, PORTAL_MAILMAN_USER and PORTAL_MAILMAN_PASSWORD'
        : undefined,
  },
  ldapBindPasswordFile: {
    check: ({ ldapBindPassword, ldapBindPasswordFile }) =>
      ldapBindPassword !== undefined && ldapBindPasswordFile !== undefined
        ? 'PORTAL_LDAP_BIND_PASSWORD and PORTAL_LDAP_BIND_PASSWORD_FILE: set one of them, not both'
        : undefined,
  },
  ldapBaseDn: {
    check: ({ ldapUrl, ldapBindDn, ldapBindPassword, ldapBindPasswordFile, ldapBaseDn }) =>
      ldapUrl !== undefined && (ldapBindDn === undefined || ldapBaseDn === undefined || (ldapBindPassword === undefined && ldapBindPasswordFile === undefined))
        ? 'PORTAL_LDAP_URL needs PORTAL_LDAP_BIND_DN, PORTAL_LDAP_BIND_PASSWORD (or PORTAL_LDAP_BIND_PASSWORD_FILE) and PORTAL_LDAP_BASE_DN'
        : undefined,
  },
};

/** Not a setting of either schema: it names the configuration file itself. */
export const CONFIG_FILE_VARIABLE = 'PORTAL_CONFIG_FILE';

export interface Settings {
  portal: PortalConfiguration;
  server: ServerSettings;
  /** Things worth telling the operator that do not stop the server (e.g. an unknown PORTAL_ variable). */
  warnings: string[];
}

export interface LoadOptions {
  env?: Env;
  /** Relative paths in the environment are resolved against this directory. */
  cwd?: string;
}

// ---------------------------------------------------------------------------------------------
// The reader

/** A setting's schema as the reader sees it: its options, and Type.Optional's mark. */
type SettingSchema = TSchema & Partial<SettingOptions> & Reading & { title?: string; '~optional'?: boolean };

/** The settings of an object schema, in their order. */
export function settingsOf(schema: { properties: TProperties }): [string, SettingSchema][] {
  return Object.entries(schema.properties) as [string, SettingSchema][];
}

/** The value of one layer, checked against the setting's schema: environment text read by the kind, or a JSON value of the file (a string, read alike, for the kinds that read text beyond booleans and numbers). */
function valueOf(setting: SettingSchema, given: unknown, cwd: string, fromText: boolean): unknown {
  let value = given;
  if (setting.text !== undefined && (fromText || !(Type.IsBoolean(setting) || Type.IsInteger(setting)))) {
    if (typeof given !== 'string') refuse(`${quote(given)} is not a string`);
    value = setting.text(given, fromText ? cwd : '');
  }
  if (value === undefined && setting['~optional'] === true) return undefined;
  if (!Value.Check(setting, value)) refuse(`${quote(given)} is not ${setting.title ?? 'allowed here'}`);
  return value;
}

interface ConfigFile {
  name: string;
  content: Record<string, unknown>;
}

interface Table<T> {
  schema: { properties: TProperties };
  variableOf(key: string): string;
  /** How a problem names its setting: the portal configuration's by key and source, the server settings' by variable. */
  name(problem: { key: string; variable: string; reason: string; source: string }): string;
  defaults?: { readonly [K in keyof T]?: (read: Partial<T>, cwd: string) => T[K] };
  rules: Rules<T>;
}

/** Reads a table in layers (the defaults, the file's JSON values, the environment's text), then checks its rules. */
function readTable<T>(table: Table<T>, env: Env, cwd: string, file: ConfigFile | undefined, problems: string[]): T {
  const settings = settingsOf(table.schema);
  const read: Record<string, unknown> = {};
  const invalid = new Set<string>();
  /** One layer's value: a bad one is reported, and a good one from a later layer replaces it. */
  const take = (key: string, setting: SettingSchema, source: string, given: unknown, fromText: boolean): void => {
    try {
      read[key] = valueOf(setting, given, cwd, fromText);
      invalid.delete(key);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      invalid.add(key);
      problems.push(...error.reasons.map((reason) => table.name({ key, variable: table.variableOf(key), reason, source })));
    }
  };
  for (const [key, value] of Object.entries(file?.content ?? {})) {
    const setting = table.schema.properties[key] as SettingSchema | undefined;
    if (setting === undefined) problems.push(`${key}: unknown key in ${file?.name} (known: ${settings.map(([k]) => k).join(', ')})`);
    else take(key, setting, `in ${file?.name}`, value, false);
  }
  for (const [key, setting] of settings) {
    if (!Object.hasOwn(read, key)) {
      const derive = table.defaults?.[key as keyof T];
      read[key] = derive !== undefined ? derive(read as Partial<T>, cwd) : Value.Default(setting, undefined);
    }
    const variable = table.variableOf(key);
    const text = env[variable];
    if (text !== undefined && text.trim() !== '') take(key, setting, `from ${variable}`, text, true);
    const rule = table.rules[key as keyof T];
    if (rule !== undefined && ![key, ...(rule.uses ?? []).map(String)].some((k) => invalid.has(k))) {
      const problem = rule.check(read as T);
      if (problem !== undefined) problems.push(problem);
    }
  }
  if (problems.length === 0 && !Value.Check(table.schema as TSchema, read)) {
    // A default or a kind that gives what its own schema refuses: a defect here, not the operator's.
    throw new Error(`settings out of their schema: ${[...Value.Errors(table.schema as TSchema, read)].map((e) => `${e.instancePath} ${e.message}`).join('; ')}`);
  }
  return read as T;
}

const PORTAL_TABLE: Table<PortalConfiguration> = {
  schema: PORTAL_CONFIGURATION,
  variableOf: (key) => envVarFor(key as ConfigurationKey),
  name: ({ key, reason, source }) => `${key}: ${reason} (${source})`,
  rules: PORTAL_RULES,
};

const SERVER_TABLE: Table<ServerSettings> = {
  schema: SERVER_SETTINGS,
  variableOf: (key) => (SERVER_SETTINGS.properties[key as keyof ServerSettings] as unknown as SettingSchema).env ?? key,
  name: ({ variable, reason }) => `${variable}: ${reason}`,
  defaults: SERVER_DEFAULTS,
  rules: SERVER_RULES,
};

/** The configuration file's keys; throws Invalid. */
function readConfigFile(file: string): Record<string, unknown> {
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) refuse(`${file} is not valid JSON (${error.message})`);
    const code = (error as NodeJS.ErrnoException).code;
    refuse(code === 'ENOENT' ? `${file} does not exist` : `cannot read ${file} (${code ?? 'unknown error'})`);
  }
  if (typeof content !== 'object' || content === null || Array.isArray(content)) refuse(`${file} must hold a JSON object of configuration keys`);
  return content as Record<string, unknown>;
}

function collectPortalConfiguration(env: Env, cwd: string, problems: string[]): PortalConfiguration {
  const fileName = env[CONFIG_FILE_VARIABLE];
  let file: ConfigFile | undefined;
  if (fileName !== undefined && fileName.trim() !== '') {
    const name = resolve(cwd, fileName);
    try {
      file = { name, content: readConfigFile(name) };
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      problems.push(...error.reasons.map((reason) => `${CONFIG_FILE_VARIABLE}: ${reason}`));
    }
  }
  return readTable(PORTAL_TABLE, env, cwd, file, problems);
}

function collectServerSettings(env: Env, cwd: string, problems: string[]): ServerSettings {
  return readTable(SERVER_TABLE, env, cwd, undefined, problems);
}

function unknownPortalVariables(env: Env): string[] {
  const known = new Set<string>([CONFIG_FILE_VARIABLE, ...settingsOf(SERVER_SETTINGS).map(([key]) => SERVER_TABLE.variableOf(key)), ...CONFIGURATION_KEYS.map(envVarFor)]);
  return Object.keys(env)
    .filter((name) => name.startsWith('PORTAL_') && !known.has(name))
    .sort()
    .map((name) => `${name} is not a setting of the server; it is ignored`);
}

// ---------------------------------------------------------------------------------------------
// Entry points

function load<R>(options: LoadOptions, collect: (env: Env, cwd: string, problems: string[]) => R): R {
  const problems: string[] = [];
  const result = collect(options.env ?? process.env, options.cwd ?? process.cwd(), problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return result;
}

/** The portal configuration alone (defaults → file → environment). Throws ConfigError. */
export function loadPortalConfiguration(options: LoadOptions = {}): PortalConfiguration {
  return load(options, collectPortalConfiguration);
}

/** The server settings alone (environment only). Throws ConfigError. */
export function loadServerSettings(options: LoadOptions = {}): ServerSettings {
  return load(options, collectServerSettings);
}

/**
 * The supported services a sign-in's redirect cannot go back to, said once at start: without an
 * origin in service_origins (the wiki's origin stands for Confluence) such a redirect is refused
 * and a signed-in user lands on the profile, their subscription never checked.
 */
export function servicesWithoutOrigin(portal: Pick<PortalConfiguration, 'supported_services' | 'service_origins' | 'wiki_url'>): string[] {
  const named = new Set<string>(serviceOrigins(portal).map((pair) => pair.service));
  if (originOf(portal.wiki_url) !== undefined) named.add('confluence');
  const missing = supportedServices(portal).filter((service) => !named.has(service));
  if (missing.length === 0) return [];
  return [`service_origins names no origin for ${missing.join(', ')} (supported): a sign-in's redirect to ${missing.length === 1 ? 'it' : 'them'} is refused`];
}

/** Everything main needs; all problems of both parts are reported together. Throws ConfigError. */
export function loadSettings(options: LoadOptions = {}): Settings {
  return load(options, (env, cwd, problems) => {
    const portal = collectPortalConfiguration(env, cwd, problems);
    const server = collectServerSettings(env, cwd, problems);
    return { portal, server, warnings: [...unknownPortalVariables(env), ...servicesWithoutOrigin(portal)] };
  });
}
