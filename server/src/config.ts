/**
 * Settings, declared as two tables read by one small reader: the portal configuration (spec
 * section 3) and the server settings. Each entry gives its kind (how environment text, and a JSON
 * value of the configuration file, become a value — or why not), its default, its environment
 * variable, what it means, and any rule it keeps with the entries before it.
 *
 * Layers: the default → the JSON file named by PORTAL_CONFIG_FILE (portal configuration only) →
 * the environment (a blank variable counts as unset); then the rules. Every problem is collected
 * and reported together in one ConfigError, each line naming the key or variable at fault.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
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
import { LIST_ENGINES, type ListEngineName } from './services/lists/engine.js';
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

/** The server settings; each is described in SERVER_SETTING_FIELDS below. */
export interface ServerSettings {
  port: number;
  host: string;
  /** PostgreSQL connection string; undefined means the embedded PGlite database in dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  environment: string;
  environmentManifest: string;
  hostDir: string;
  /** The remote store <remotesDir>/<name>/<version>/; undefined: <dataDir>/remotes, with the workspace builds published at start. */
  remotesDir: string | undefined;
  devRemotes: Readonly<Record<string, string>>;
  nodeEnv: string;
  seedDemo: boolean;
  logLevel: LogLevel;
  loginMaxFailures: number;
  /** undefined: a random secret generated once and kept in the database. */
  challengeSecret: string | undefined;
  challengeCost: number;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  /** HTTPS: certificate and key files (both or neither); undefined: plain HTTP. */
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  tlsClientCa: string | undefined;
  trustedProxies: readonly string[];
  /** The limits of the calls a visitor makes without a session, per client address (services/rate-limits.ts). */
  rateLimits: RateLimits;
  /** The limit of one signed-in session's calls; undefined: none. */
  sessionRateLimit: RateLimit | undefined;
  /** May hold a password: never log it. undefined: mail stays in the outbox. */
  smtpUrl: string | undefined;
  /** undefined: web@<email_domain> of the portal configuration. */
  mailFrom: string | undefined;
  mailPollMs: number;
  personalEmailDomains: readonly string[];
  /** Origin and optional path without a final '/'; undefined: from the request. */
  publicUrl: string | undefined;
  /** The session cookie's Domain (a parent domain of the portal's host); undefined: the portal's host only. */
  cookieDomain: string | undefined;
  /** Who issues artifact-repository tokens (server/docs/tokens.md). */
  tokenIssuer: TokenIssuerName;
  /** The Artifactory issuer: its base address (origin and path, no final '/'). */
  artifactoryUrl: string | undefined;
  /** The Artifactory issuer: an admin-scoped access token. Never log it. */
  artifactoryAdminToken: string | undefined;
  tokenMaintenanceMs: number;
  /** The mailing lists' SMTP listener (server/docs/mailing-lists.md). */
  listSmtpHost: string;
  /** 0: any free port. */
  listSmtpPort: number;
  listMaxMessageBytes: number;
  /** What runs the mailing lists (server/docs/mailing-lists.md, "List engines"). */
  listEngine: ListEngineName;
  /** The Mailman engine: Mailman core's REST address (origin and path, no final '/'). */
  mailmanUrl: string | undefined;
  mailmanUser: string | undefined;
  /** The Mailman engine: the REST password. Never log it. */
  mailmanPassword: string | undefined;
  /** The LDAP directory kept in step (docs/provisioning.md); undefined: none. */
  ldapUrl: string | undefined;
  ldapBindDn: string | undefined;
  /** Never log it. */
  ldapBindPassword: string | undefined;
  /** A file holding the bind password (its first line). */
  ldapBindPasswordFile: string | undefined;
  ldapBaseDn: string | undefined;
  /** Delete entries under the portal's OUs that the portal does not know. */
  ldapPrune: boolean;
  /** The SCIM 2.0 services kept in step (docs/provisioning.md, "SCIM 2.0"); empty: none. */
  scimTargets: readonly ScimTargetSetting[];
  provisioningReconcileMinutes: number;
  provisioningHistoryDays: number;
  /** The purge of expired rows (services/retention.ts): how often it runs. */
  purgeIntervalMs: number;
  /** A failed sign-in count below the limit is forgotten after this long without a failure. */
  loginFailureRetentionHours: number;
  /** An unknown identifier's count at the limit (answering 423): days kept after its last failure; 0: never purged. */
  lockedIdentifierRetentionDays: number;
  verificationCodeRetentionHours: number;
  sentMailRetentionDays: number;
}

/** One entry of PORTAL_SCIM_TARGETS: its bearer token is given, or read from a file at start (exactly one of the two). */
export interface ScimTargetSetting {
  /** Names the target: 'scim:<name>'. */
  name: string;
  /** The SCIM base address (…/scim/v2), without a final '/'. */
  url: string;
  /** Never log it. */
  token: string | undefined;
  /** A file whose first line is the token. */
  tokenFile: string | undefined;
}

export const TOKEN_ISSUERS = ['embedded', 'artifactory'] as const;
export type TokenIssuerName = (typeof TOKEN_ISSUERS)[number];

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

/** The environment variable that sets a configuration key: cac_support → PORTAL_CAC_SUPPORT. */
export function envVarFor(key: ConfigurationKey): string {
  return `PORTAL_${key.toUpperCase()}`;
}

// ---------------------------------------------------------------------------------------------
// Kinds of value

/** Why a value is refused, one reason per bad item; the reader adds the key and where the value came from. */
class Invalid extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(reasons.join('\n'));
  }
}

function refuse(reason: string): never {
  throw new Invalid([reason]);
}

/** How a value is read: from environment text (never blank), or from a JSON value of the file. Both throw Invalid. */
export interface Kind<V> {
  text(text: string, cwd: string): V;
  json(value: unknown): V;
}

export function parseBooleanText(text: string): boolean | undefined {
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

const BOOLEAN: Kind<boolean> = {
  text: (text) => parseBooleanText(text) ?? refuse(`${quote(text)} is not a boolean; use true, false, 1, 0, yes or no`),
  json: (value) => (typeof value === 'boolean' ? value : refuse(`${quote(value)} is not a boolean; use true or false`)),
};

/** A whole number within bounds: digits in the environment, a JSON number in the file. */
function integer(min: number, max?: number, what?: string): Kind<number> {
  what ??= max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  const check = (given: unknown, value: number): number =>
    Number.isSafeInteger(value) && value >= min && value <= (max ?? Infinity) ? value : refuse(`${quote(given)} is not ${what}`);
  return {
    text: (text) => check(text, /^\s*\d+\s*$/.test(text) ? Number(text) : NaN),
    json: (value) => check(value, typeof value === 'number' ? value : NaN),
  };
}

/** Text, read by `read`; in the file a JSON string, read alike. */
function text<V>(read: (text: string, cwd: string) => V): Kind<V> {
  return { text: read, json: (value) => (typeof value === 'string' ? read(value, '') : refuse(`${quote(value)} is not a string`)) };
}

const STRING = text((value) => value);
const TRIMMED = text((value) => value.trim());
/** A path, relative ones resolved from the working directory. */
const PATH = text((value, cwd) => resolve(cwd, value.trim()));

function oneOf<W extends string>(words: readonly W[], what: string, anyCase = false): Kind<W> {
  return text((value) => {
    const word = anyCase ? value.trim().toLowerCase() : value.trim();
    return words.find((w) => w === word) ?? refuse(`${quote(value)} is not ${what} (known: ${words.join(', ')})`);
  });
}

const ENVIRONMENT_NAME = text((value) =>
  /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(value.trim()) ? value.trim() : refuse(`${quote(value.trim())} is not an environment name (letters, digits, - and _)`),
);

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

const SERVICE_LIST = text((value) =>
  items(value, (item) => SERVICES.find((id) => id === item.toLowerCase()) ?? refuse(`unknown service '${item}' (known: ${SERVICES.join(', ')})`)).join(','),
);

/** service=origin pairs (serviceOrigins in @portal/api), kept as written once each pair is right. */
const SERVICE_ORIGINS = text((value) => {
  const problems: string[] = [];
  const pairs = serviceOrigins({ service_origins: value }, problems);
  if (problems.length > 0) refuse(problems.join('; '));
  return pairs.map((p) => `${p.service}=${p.origin}`).join(',');
});

/** The portal configuration's URLs: http(s), or the spec's 'undefined'. */
const HTTP_URL_OR_UNDEFINED = text((value) => {
  const url = value.trim();
  if (url === 'undefined') return url;
  const protocol = urlOf(url)?.protocol;
  if (protocol === undefined) refuse(`${quote(url)} is not a URL; give an http(s) URL or 'undefined'`);
  if (protocol !== 'http:' && protocol !== 'https:') refuse(`${quote(url)} is not an http(s) URL; give an http(s) URL or 'undefined'`);
  return url;
});

// The server settings' own kinds. Values that may hold a password (DATABASE_URL, SMTP_URL) are never echoed.

const LDAP_URL = text((value) => {
  const url = urlOf(value.trim());
  if (url === undefined || !['ldap:', 'ldaps:'].includes(url.protocol) || url.hostname === '') {
    refuse(`${quote(value)} is not an LDAP address; use ldap://host:port or ldaps://host:port`);
  }
  return value.trim();
});

const SCIM_TARGET_EXAMPLE = '[{"name":"artifactory","url":"https://artifactory.example.test/access/api/v1/scim/v2","tokenFile":"/run/secrets/scim"}]';
const SCIM_TARGET_KEYS = ['name', 'url', 'token', 'tokenFile'];
const SCIM_TARGET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * A JSON array of SCIM services, each `{"name", "url", "token" | "tokenFile"}`. Neither the text
 * nor a token is ever echoed (a JSON error says only where it is), an address only when it holds
 * no user or password; every bad entry is reported, named by its name or its place.
 */
const SCIM_TARGETS = text((value, cwd): ScimTargetSetting[] => {
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
});

const DATABASE_URL = text((value) =>
  ['postgres:', 'postgresql:'].includes(urlOf(value)?.protocol ?? '')
    ? value
    : refuse('must be a postgres:// or postgresql:// URL (unset it to use the embedded database)'),
);

const SMTP_URL = text((value) => {
  const url = urlOf(value.trim());
  if (url === undefined || !['smtp:', 'smtps:'].includes(url.protocol) || url.hostname === '') {
    refuse('must be an smtp:// or smtps:// URL with a host, e.g. smtp://mail.example.test:587 (unset it to keep mail in the outbox)');
  }
  return value.trim();
});

const MAIL_ADDRESS = text((value) =>
  isMailAddress(value.trim()) ? value.trim() : refuse(`${quote(value.trim().replace(/[\r\n]/g, ' '))} is not one email address`),
);

const PUBLIC_URL = text((value) => {
  const url = urlOf(value.trim());
  if (url === undefined || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password) {
    refuse(`${quote(value.trim())} is not an http(s) address without query or fragment, e.g. https://portal.example.test`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
});

/** A credential of another system: any non-blank text, never echoed. */
const SECRET_VALUE = text((value) => (value.trim() === '' ? refuse('is blank') : value.trim()));

const SECRET = text((value) => (value.length >= 32 ? value : refuse('must be at least 32 characters long (or unset, for a generated one)')));

/** name=url,… → the remotes' replaced entries. */
const DEV_REMOTES = text((value) => {
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
});

const RATE_LIMITS = text((value) => {
  const limits = parseRateLimits(value);
  return typeof limits === 'string' ? refuse(limits) : limits;
});

const SESSION_RATE_LIMIT = text((value) => {
  if (value.trim() === 'off') return undefined;
  const limit = parseRateLimit(value);
  return typeof limit === 'string' ? refuse(limit) : limit;
});

/** '::ffff:10.0.0.1' (an IPv4 peer on a dual-stack socket) → '10.0.0.1'; IPv6 in lower case. */
export function normalizeAddress(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}

const IP_ADDRESSES = text((value) =>
  items(value, (item) => (isIP(item) === 0 ? refuse(`${quote(item)} is not an IP address`) : normalizeAddress(item))),
);

const DOMAIN_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Comma-separated mail domains (any case, an optional leading @); 'none' for an empty list. */
const DOMAINS = text((value): readonly string[] => {
  if (value.trim().toLowerCase() === 'none') return [];
  return items(value, (item) => {
    const domain = item.toLowerCase().replace(/^@/, '');
    if (domain === '') return undefined;
    return DOMAIN_NAME.test(domain) ? domain : refuse(`${quote(item)} is not a domain name (e.g. gmail.com; 'none' for no list)`);
  });
});

/** A cookie's Domain: a domain name of two labels or more (a leading dot is dropped), never an IP address. */
const COOKIE_DOMAIN = text((value) => {
  const domain = value.trim().toLowerCase().replace(/^\./, '');
  if (!DOMAIN_NAME.test(domain) || isIP(domain) !== 0) {
    refuse(`${quote(value.trim())} is not a domain name, e.g. example.test (the parent domain of the portal's host and the services' hosts)`);
  }
  return domain;
});

/** Whether a host name is the domain itself or inside it. */
export function isHostInDomain(host: string, domain: string): boolean {
  const name = host.toLowerCase();
  return name === domain || name.endsWith(`.${domain}`);
}

// ---------------------------------------------------------------------------------------------
// The tables

export interface Field<V, T> extends Kind<V> {
  /** The environment variable; for the portal configuration PORTAL_<KEY> (envVarFor). */
  env?: string;
  /** The value when no layer gives one; a function of the entries before it and the working directory. */
  default: V | ((read: Readonly<T>, cwd: string) => V);
  /** What it means. */
  doc: string;
  /** A rule with entries before it: the problem (naming the keys at fault) or undefined. Checked once every layer is read, when this entry and those in `uses` are valid. */
  rule?: (read: Readonly<T>) => string | undefined;
  uses?: readonly (keyof T)[];
}

export type Fields<T> = { readonly [K in keyof T]-?: Field<T[K], T> };

const spec = DEFAULT_CONFIGURATION;

/** The portal configuration, served by GET /accounts/rest/configuration; defaults from spec section 8 ('undefined' is served as such). */
export const PORTAL_CONFIGURATION_FIELDS: Fields<PortalConfiguration> = {
  cac_support: { ...BOOLEAN, default: spec.cac_support, doc: 'smart-card (CAC) sign-in and registration are offered' },
  auto_cert_registration_approval: { ...BOOLEAN, default: spec.auto_cert_registration_approval, doc: 'a CAC registration is approved without an adjudicator' },
  brand: { ...STRING, default: spec.brand, doc: 'the product name shown in the top bar' },
  email_domain: { ...STRING, default: spec.email_domain, doc: 'domain of mailing-list addresses and of the help address web@<domain>' },
  css_theme: { ...oneOf(CSS_THEMES, 'a theme'), default: spec.css_theme, doc: "light, dark, or 'undefined': follow the reader's system setting" },
  wiki_url: { ...HTTP_URL_OR_UNDEFINED, default: spec.wiki_url, doc: 'where users go after sign-in without a redirect; the brand links there' },
  login_logo_filename: { ...STRING, default: spec.login_logo_filename, doc: 'logo on the sign-in page' },
  show_login_agreement: { ...BOOLEAN, default: spec.show_login_agreement, doc: 'an agreement must be accepted before signing in' },
  login_agreement_filename: { ...STRING, default: spec.login_agreement_filename, doc: "the agreement's text" },
  supported_services: { ...SERVICE_LIST, default: spec.supported_services, doc: `comma-separated: ${SERVICES.join(', ')}` },
  artifacts_token_max_expiry: { ...integer(1), default: spec.artifacts_token_max_expiry, doc: 'longest token lifetime a user may choose, in days' },
  artifacts_token_default_expiry: {
    ...integer(1), default: spec.artifacts_token_default_expiry, doc: 'the lifetime proposed, in days (at most the maximum)',
    uses: ['artifacts_token_max_expiry'],
    rule: ({ artifacts_token_default_expiry: days, artifacts_token_max_expiry: max }) =>
      days > max ? `artifacts_token_default_expiry: ${days} is more than artifacts_token_max_expiry (${max})` : undefined,
  },
  artifacts_token_revocable_expiry: {
    ...integer(1), default: spec.artifacts_token_revocable_expiry, doc: 'tokens with a shorter lifetime, in hours, cannot be revoked',
    uses: ['artifacts_token_max_expiry'],
    rule: ({ artifacts_token_revocable_expiry: hours, artifacts_token_max_expiry: max }) =>
      hours > max * 24
        ? `artifacts_token_revocable_expiry: ${hours} hours is longer than artifacts_token_max_expiry (${max} days = ${max * 24} hours)`
        : undefined,
  },
  artifacts_profile_url: { ...HTTP_URL_OR_UNDEFINED, default: spec.artifacts_profile_url, doc: "the artifact repository's profile page" },
  bitbucket_url: { ...HTTP_URL_OR_UNDEFINED, default: spec.bitbucket_url, doc: "the source host's address: its token pages are linked from /tokens/services ('undefined': its origin in service_origins)" },
  jira_url: { ...HTTP_URL_OR_UNDEFINED, default: spec.jira_url, doc: "the issue tracker's address: its token page is linked from /tokens/services ('undefined': its origin in service_origins)" },
  login_help_url: {
    ...HTTP_URL_OR_UNDEFINED, default: spec.login_help_url,
    doc: "the page /login's Login help opens; 'undefined': the wiki's Login+Help page in the WEB space (none without a wiki)",
  },
  service_origins: {
    ...SERVICE_ORIGINS, default: spec.service_origins,
    doc: 'service=origin pairs (jira=https://jira.example.test,…): the platform services a sign-in may send the user back to',
  },
};

/** The server settings, from the environment only. Problems are reported in this order, and a default sees the entries before it. */
export const SERVER_SETTING_FIELDS: Fields<ServerSettings> = {
  databaseUrl: { env: 'DATABASE_URL', ...DATABASE_URL, default: undefined, doc: 'postgres://… or postgresql://…: use PostgreSQL; unset: the embedded PGlite' },
  dataDir: { env: 'PORTAL_DATA_DIR', ...PATH, default: (_, cwd) => resolve(cwd, 'data'), doc: "the embedded database's folder" },
  environment: { env: 'PORTAL_ENVIRONMENT', ...ENVIRONMENT_NAME, default: 'local', doc: "the environment's name, choosing its manifest" },
  environmentManifest: {
    env: 'PORTAL_ENVIRONMENT_MANIFEST', ...PATH, doc: 'the manifest file',
    default: ({ environment }) => join(SERVER_DIR, 'environments', `${environment}.json`),
  },
  nodeEnv: { env: 'NODE_ENV', ...TRIMMED, default: 'development', doc: 'production turns demo data off by default' },
  logLevel: { env: 'LOG_LEVEL', ...oneOf(LOG_LEVELS, 'a log level', true), default: 'info', doc: 'the least severe level logged' },
  seedDemo: {
    env: 'PORTAL_SEED_DEMO', ...BOOLEAN, doc: 'create the demo accounts (into a database without accounts)',
    default: ({ databaseUrl, nodeEnv }) => databaseUrl === undefined && nodeEnv !== 'production',
  },
  tlsCert: { env: 'PORTAL_TLS_CERT', ...PATH, default: undefined, doc: "PEM file of the server's certificate: HTTPS, with PORTAL_TLS_KEY" },
  tlsKey: {
    env: 'PORTAL_TLS_KEY', ...PATH, default: undefined, doc: "PEM file of the server's key: HTTPS, with PORTAL_TLS_CERT",
    rule: ({ tlsCert, tlsKey }) =>
      (tlsCert === undefined) !== (tlsKey === undefined) ? 'PORTAL_TLS_CERT, PORTAL_TLS_KEY: set both (HTTPS) or neither (HTTP)' : undefined,
  },
  tlsClientCa: {
    env: 'PORTAL_TLS_CLIENT_CA', ...PATH, default: undefined, doc: 'PEM CA bundle of smart-card client certificates (asked for, not required)',
    rule: ({ tlsClientCa, tlsCert }) =>
      tlsClientCa !== undefined && tlsCert === undefined ? 'PORTAL_TLS_CLIENT_CA: needs HTTPS (PORTAL_TLS_CERT and PORTAL_TLS_KEY)' : undefined,
  },
  challengeSecret: { env: 'PORTAL_CHALLENGE_SECRET', ...SECRET, default: undefined, doc: 'HMAC secret of the bot challenge; unset: generated once into the database' },
  port: { env: 'PORT', ...integer(0, 65535, 'a port number (0 to 65535)'), default: 8080, doc: 'port to listen on (0: any free port)' },
  host: { env: 'HOST', ...TRIMMED, default: 'localhost', doc: 'address to listen on (0.0.0.0 for every interface)' },
  hostDir: { env: 'PORTAL_HOST_DIR', ...PATH, default: join(REPO_DIR, 'host', 'dist'), doc: 'the host build served at /' },
  remotesDir: {
    env: 'PORTAL_REMOTES_DIR', ...PATH, default: undefined,
    doc: 'the remote store, <dir>/<name>/<version>/ (a folder every server shares); unset: <data dir>/remotes, and each start publishes the workspace builds into it',
  },
  devRemotes: { env: 'PORTAL_DEV_REMOTES', ...DEV_REMOTES, default: {}, doc: "name=url,…: replaces a remote's entry in /environment.json" },
  loginMaxFailures: { env: 'PORTAL_LOGIN_MAX_FAILURES', ...integer(1, 1000), default: 5, doc: 'failed sign-ins per identifier that lock the account' },
  challengeCost: { env: 'PORTAL_CHALLENGE_COST', ...integer(1, 10_000_000), default: DEFAULT_CHALLENGE_COST, doc: 'PBKDF2 iterations per attempt of the bot challenge' },
  sessionIdleMinutes: { env: 'PORTAL_SESSION_IDLE_MINUTES', ...integer(1, 60 * 24 * 30), default: 30, doc: 'a session unused this long ends' },
  sessionAbsoluteHours: { env: 'PORTAL_SESSION_ABSOLUTE_HOURS', ...integer(1, 24 * 365), default: 12, doc: 'a session ends this long after sign-in' },
  trustedProxies: { env: 'PORTAL_TRUSTED_PROXIES', ...IP_ADDRESSES, default: [], doc: 'reverse proxies whose X-Client-Cert and X-Forwarded-Proto are believed' },
  rateLimits: {
    env: 'PORTAL_RATE_LIMITS', ...RATE_LIMITS, default: DEFAULT_RATE_LIMITS,
    doc: "name=calls/seconds,…: the limits of the calls made without a session, per client address, shared by every server (name=off: that one off; 'off': all)",
  },
  sessionRateLimit: {
    env: 'PORTAL_SESSION_RATE_LIMIT', ...SESSION_RATE_LIMIT, default: DEFAULT_SESSION_RATE_LIMIT,
    doc: "calls/seconds: the limit of one signed-in session's calls, counted by each server ('off': none)",
  },
  smtpUrl: { env: 'SMTP_URL', ...SMTP_URL, default: undefined, doc: 'the mail server, smtp:// or smtps://; unset: mail stays in the outbox' },
  mailFrom: { env: 'MAIL_FROM', ...MAIL_ADDRESS, default: undefined, doc: 'the sender of every mail; unset: web@<email_domain>' },
  mailPollMs: { env: 'PORTAL_MAIL_POLL_MS', ...integer(1, 3_600_000), default: DEFAULT_MAIL_POLL_MS, doc: 'how often the mail worker looks for mail (ms)' },
  personalEmailDomains: {
    env: 'PORTAL_PERSONAL_EMAIL_DOMAINS', ...DOMAINS, default: DEFAULT_PERSONAL_EMAIL_DOMAINS,
    doc: "mail domains (and their subdomains) an account request may not use; 'none': no list",
  },
  publicUrl: { env: 'PORTAL_PUBLIC_URL', ...PUBLIC_URL, default: undefined, doc: "the portal's address for links in mail and the redirects of forward auth; unset: from the request" },
  cookieDomain: {
    env: 'PORTAL_COOKIE_DOMAIN', ...COOKIE_DOMAIN, default: undefined,
    doc: "the parent domain the session cookie is sent to (Domain=), so that the reverse proxies of services on sibling hosts pass it to forward auth; needs PORTAL_PUBLIC_URL, whose host must be inside it; unset: the portal's host only",
    uses: ['publicUrl'],
    rule: ({ cookieDomain, publicUrl }) => {
      if (cookieDomain === undefined) return undefined;
      if (publicUrl === undefined) return `PORTAL_COOKIE_DOMAIN: needs PORTAL_PUBLIC_URL (the portal's address, whose host must be inside ${cookieDomain})`;
      const host = new URL(publicUrl).hostname;
      return isHostInDomain(host, cookieDomain) ? undefined : `PORTAL_COOKIE_DOMAIN: the portal's host ${host} (PORTAL_PUBLIC_URL) is not inside ${cookieDomain}, so its session cookie could not be set there`;
    },
  },
  tokenIssuer: {
    env: 'PORTAL_TOKEN_ISSUER', ...oneOf(TOKEN_ISSUERS, 'a token issuer'), default: 'embedded',
    doc: 'embedded: the portal issues artifact-repository tokens (services introspect them); artifactory: JFrog Artifactory does',
  },
  artifactoryUrl: { env: 'ARTIFACTORY_URL', ...PUBLIC_URL, default: undefined, doc: "the Artifactory issuer's address, e.g. https://artifacts.example.test" },
  artifactoryAdminToken: {
    env: 'ARTIFACTORY_ADMIN_TOKEN', ...SECRET_VALUE, default: undefined, doc: 'the Artifactory issuer: an admin access token (kept out of logs)',
    rule: ({ tokenIssuer, artifactoryUrl, artifactoryAdminToken }) =>
      tokenIssuer === 'artifactory' && (artifactoryUrl === undefined || artifactoryAdminToken === undefined)
        ? 'PORTAL_TOKEN_ISSUER=artifactory needs ARTIFACTORY_URL and ARTIFACTORY_ADMIN_TOKEN'
        : undefined,
  },
  tokenMaintenanceMs: {
    env: 'PORTAL_TOKEN_MAINTENANCE_MS', ...integer(1000, 86_400_000), default: 60_000,
    doc: 'how often expiry mails are queued and unconfirmed revocations retried (ms)',
  },
  listSmtpHost: { env: 'PORTAL_LIST_SMTP_HOST', ...TRIMMED, default: '127.0.0.1', doc: "the address the mailing lists' SMTP listener listens on" },
  listSmtpPort: {
    env: 'PORTAL_LIST_SMTP_PORT', ...integer(0, 65535, 'a port number (0 to 65535)'), default: 2525,
    doc: "the port of the mailing lists' SMTP listener (0: any free port)",
  },
  listMaxMessageBytes: {
    env: 'PORTAL_LIST_MAX_MESSAGE_BYTES', ...integer(1024, 100 * 1024 * 1024), default: 1024 * 1024,
    doc: 'the largest post a list accepts; larger ones are refused at SMTP time (552)',
  },
  listEngine: {
    env: 'PORTAL_LIST_ENGINE', ...oneOf(LIST_ENGINES, 'a list engine'), default: 'embedded',
    doc: "embedded: the portal runs the lists (its SMTP listener, the outbox, its digests); mailman: a Mailman 3 core does, over its REST API",
  },
  mailmanUrl: {
    env: 'PORTAL_MAILMAN_URL', ...PUBLIC_URL, default: undefined,
    doc: "the Mailman engine: Mailman core's REST address, e.g. http://127.0.0.1:8001 (API 3.1 is used under it)",
  },
  mailmanUser: { env: 'PORTAL_MAILMAN_USER', ...SECRET_VALUE, default: undefined, doc: "the Mailman engine: the REST API's user ([webservice] admin_user)" },
  mailmanPassword: {
    env: 'PORTAL_MAILMAN_PASSWORD', ...SECRET_VALUE, default: undefined, doc: "the Mailman engine: the REST API's password ([webservice] admin_pass; kept out of logs)",
    rule: ({ listEngine, mailmanUrl, mailmanUser, mailmanPassword }) =>
      listEngine === 'mailman' && (mailmanUrl === undefined || mailmanUser === undefined || mailmanPassword === undefined)
        ? 'PORTAL_LIST_ENGINE=mailman needs PORTAL_MAILMAN_URL, PORTAL_MAILMAN_USER and PORTAL_MAILMAN_PASSWORD'
        : undefined,
  },
  ldapUrl: {
    env: 'PORTAL_LDAP_URL', ...LDAP_URL, default: undefined,
    doc: 'the LDAP directory the portal keeps in step with its accounts and groups, ldap:// or ldaps:// (docs/provisioning.md); unset: none',
  },
  ldapBindDn: { env: 'PORTAL_LDAP_BIND_DN', ...TRIMMED, default: undefined, doc: 'the directory: the DN the portal binds as (it writes under PORTAL_LDAP_BASE_DN)' },
  ldapBindPassword: { env: 'PORTAL_LDAP_BIND_PASSWORD', ...SECRET_VALUE, default: undefined, doc: "the directory: the bind DN's password (kept out of logs, errors and pages)" },
  ldapBindPasswordFile: {
    env: 'PORTAL_LDAP_BIND_PASSWORD_FILE', ...PATH, default: undefined,
    doc: "the directory: a file whose first line is the bind DN's password (instead of PORTAL_LDAP_BIND_PASSWORD)",
    rule: ({ ldapBindPassword, ldapBindPasswordFile }) =>
      ldapBindPassword !== undefined && ldapBindPasswordFile !== undefined ? 'PORTAL_LDAP_BIND_PASSWORD and PORTAL_LDAP_BIND_PASSWORD_FILE: set one of them, not both' : undefined,
  },
  ldapBaseDn: {
    env: 'PORTAL_LDAP_BASE_DN', ...TRIMMED, default: undefined,
    doc: 'the directory: the entry under which the portal keeps ou=people and ou=groups, e.g. dc=example,dc=test',
    rule: ({ ldapUrl, ldapBindDn, ldapBindPassword, ldapBindPasswordFile, ldapBaseDn }) =>
      ldapUrl !== undefined && (ldapBindDn === undefined || ldapBaseDn === undefined || (ldapBindPassword === undefined && ldapBindPasswordFile === undefined))
        ? 'PORTAL_LDAP_URL needs PORTAL_LDAP_BIND_DN, PORTAL_LDAP_BIND_PASSWORD (or PORTAL_LDAP_BIND_PASSWORD_FILE) and PORTAL_LDAP_BASE_DN'
        : undefined,
  },
  ldapPrune: {
    env: 'PORTAL_LDAP_PRUNE', ...BOOLEAN, default: false,
    doc: 'the directory: delete entries under ou=people and ou=groups that the portal does not know (false: report them only)',
  },
  scimTargets: {
    env: 'PORTAL_SCIM_TARGETS', ...SCIM_TARGETS, default: [],
    doc: 'the SCIM 2.0 services the portal keeps in step (docs/provisioning.md): a JSON array of {"name", "url", "token" or "tokenFile"}; tokens are kept out of logs, errors and pages',
  },
  provisioningReconcileMinutes: {
    env: 'PORTAL_PROVISIONING_RECONCILE_MINUTES', ...integer(1, 24 * 60), default: 10,
    doc: "how often each provisioning target is compared with the portal's truth and repaired (minutes)",
  },
  provisioningHistoryDays: {
    env: 'PORTAL_PROVISIONING_HISTORY_DAYS', ...integer(1, 36_500), default: 30,
    doc: "how long the provisioning history (failures, retries, reconciles) is kept (days)",
  },
  purgeIntervalMs: {
    env: 'PORTAL_PURGE_INTERVAL_MS', ...integer(1000, 86_400_000), default: 600_000,
    doc: 'how often expired sessions, used challenges, old failed sign-in counts, verification codes and sent mail are deleted (ms)',
  },
  loginFailureRetentionHours: {
    env: 'PORTAL_LOGIN_FAILURE_RETENTION_HOURS', ...integer(1, 24 * 365), default: 24,
    doc: 'a failed sign-in count below PORTAL_LOGIN_MAX_FAILURES is forgotten this long after its last failure, for accounts and unknown identifiers alike',
  },
  lockedIdentifierRetentionDays: {
    env: 'PORTAL_LOCKED_IDENTIFIER_RETENTION_DAYS', ...integer(0, 36_500), default: 0,
    doc: 'an unknown identifier that reached PORTAL_LOGIN_MAX_FAILURES (answering 423 like a locked account) is forgotten this long after its last failure; 0: never, as a locked account stays locked until unlocked',
  },
  verificationCodeRetentionHours: {
    env: 'PORTAL_VERIFICATION_CODE_RETENTION_HOURS', ...integer(1, 24 * 365), default: 24,
    doc: 'verification codes are deleted this long after they were asked for (at least the hour the 5-sends limit counts)',
  },
  sentMailRetentionDays: {
    env: 'PORTAL_SENT_MAIL_RETENTION_DAYS', ...integer(1, 36_500), default: 30,
    doc: 'sent mail is deleted from the outbox this long after it was sent (unsent mail is never deleted)',
  },
};

/** Not a table entry: it names the file itself. */
const CONFIG_FILE_VARIABLE = 'PORTAL_CONFIG_FILE';

// ---------------------------------------------------------------------------------------------
// The reader

interface ConfigFile {
  name: string;
  content: Record<string, unknown>;
}

/** How a problem names its entry: the portal configuration's by key and source, the server settings' by variable. */
type Naming = (problem: { key: string; variable: string; reason: string; source: string }) => string;

/** Reads a table in layers — the defaults, the file's JSON values, the environment's text — then checks its rules. */
function readFields<T>(fields: Fields<T>, env: Env, cwd: string, file: ConfigFile | undefined, naming: Naming, problems: string[]): T {
  const keys = Object.keys(fields) as (keyof T & string)[];
  const read = {} as Record<keyof T, unknown>;
  const invalid = new Set<keyof T>();
  const variableOf = (key: keyof T & string): string => fields[key].env ?? envVarFor(key as ConfigurationKey);
  /** One layer's value: a bad one is reported, and a good one from a later layer replaces it. */
  const take = (key: keyof T & string, source: string, value: () => unknown): void => {
    try {
      read[key] = value();
      invalid.delete(key);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      invalid.add(key);
      problems.push(...error.reasons.map((reason) => naming({ key, variable: variableOf(key), reason, source })));
    }
  };
  for (const [key, value] of Object.entries(file?.content ?? {})) {
    const known = keys.find((k) => k === key);
    if (known === undefined) problems.push(`${key}: unknown key in ${file?.name} (known: ${keys.join(', ')})`);
    else take(known, `in ${file?.name}`, () => fields[known].json(value));
  }
  for (const key of keys) {
    const field: Field<unknown, T> = fields[key];
    if (!Object.hasOwn(read, key)) {
      read[key] = typeof field.default === 'function' ? (field.default as (r: T, cwd: string) => unknown)(read as T, cwd) : field.default;
    }
    const text = env[variableOf(key)];
    if (text !== undefined && text.trim() !== '') take(key, `from ${variableOf(key)}`, () => field.text(text, cwd));
    if (field.rule && ![key, ...(field.uses ?? [])].some((k) => invalid.has(k))) {
      const problem = field.rule(read as T);
      if (problem !== undefined) problems.push(problem);
    }
  }
  return read as T;
}

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
  return readFields(PORTAL_CONFIGURATION_FIELDS, env, cwd, file, ({ key, reason, source }) => `${key}: ${reason} (${source})`, problems);
}

function collectServerSettings(env: Env, cwd: string, problems: string[]): ServerSettings {
  return readFields(SERVER_SETTING_FIELDS, env, cwd, undefined, ({ variable, reason }) => `${variable}: ${reason}`, problems);
}

function unknownPortalVariables(env: Env): string[] {
  const known = new Set<string | undefined>([
    CONFIG_FILE_VARIABLE,
    ...Object.values<Field<unknown, ServerSettings>>(SERVER_SETTING_FIELDS).map((field) => field.env),
    ...CONFIGURATION_KEYS.map(envVarFor),
  ]);
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
