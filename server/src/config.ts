/**
 * Settings, in layers: the spec's defaults (DEFAULT_CONFIGURATION) → an optional JSON file named
 * by PORTAL_CONFIG_FILE → environment variables PORTAL_<KEY>. Server settings (port, database,
 * directories …) come from environment variables only. Every problem is collected and reported
 * together in one ConfigError, each line naming the key or variable at fault.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import {
  CONFIGURATION_KEYS,
  CSS_THEMES,
  DEFAULT_CONFIGURATION,
  SERVICES,
  type ConfigurationKey,
  type PortalConfiguration,
} from '@portal/shared/config';
import { REMOTE_NAME } from '@portal/shared/contract';
import { REPO_DIR, SERVER_DIR } from './paths.js';
import { isMailAddress } from './services/mail-address.js';

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
  'aol.com',
  'gmail.com',
  'googlemail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'hotmail.com',
  'hotmail.co.uk',
  'icloud.com',
  'live.com',
  'mac.com',
  'mail.com',
  'mail.ru',
  'me.com',
  'msn.com',
  'outlook.com',
  'pm.me',
  'proton.me',
  'protonmail.com',
  'qq.com',
  'tutanota.com',
  'web.de',
  'yahoo.co.uk',
  'yahoo.com',
  'yandex.com',
  'yandex.ru',
  'ymail.com',
  'zoho.com',
];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ServerSettings {
  port: number;
  host: string;
  /** PostgreSQL connection string; undefined means the embedded PGlite database in dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  environment: string;
  environmentManifest: string;
  hostDir: string;
  /** Remote files at <remotesDir>/<name>/<version>/; undefined means the workspace layout. */
  remotesDir: string | undefined;
  /** Remote name → entry URL that replaces the manifest's entry (PORTAL_DEV_REMOTES). */
  devRemotes: Readonly<Record<string, string>>;
  nodeEnv: string;
  seedDemo: boolean;
  logLevel: LogLevel;
  /** Failed sign-ins per identifier that lock the account (PORTAL_LOGIN_MAX_FAILURES). */
  loginMaxFailures: number;
  /** HMAC secret of the bot challenge; undefined: a random one generated once and kept in the database. */
  challengeSecret: string | undefined;
  /** Cost (PBKDF2 iterations) of the bot challenge's proof of work. */
  challengeCost: number;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  /** HTTPS: certificate and key files (both or neither); undefined: plain HTTP. */
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  /** CA bundle file that client (smart-card) certificates must chain to; asks browsers for one. */
  tlsClientCa: string | undefined;
  /** Addresses of reverse proxies whose X-Client-Cert / X-Forwarded-Proto headers are trusted. */
  trustedProxies: readonly string[];
  /** smtp:// or smtps:// URL of the mail server (SMTP_URL); undefined: mail stays in the outbox. May hold a password: never log it. */
  smtpUrl: string | undefined;
  /** The sender of every mail (MAIL_FROM); undefined: web@<email_domain> of the portal configuration. */
  mailFrom: string | undefined;
  /** How often the mail worker looks for mail to send, in milliseconds (PORTAL_MAIL_POLL_MS). */
  mailPollMs: number;
  /** Lower-cased mail domains an account request may not use (PORTAL_PERSONAL_EMAIL_DOMAINS); a domain covers its subdomains. */
  personalEmailDomains: readonly string[];
  /** The portal's public address for links in mail, origin and optional path without a final '/' (PORTAL_PUBLIC_URL); undefined: from the request. */
  publicUrl: string | undefined;
}

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

const SERVER_VARIABLES = [
  'PORTAL_CONFIG_FILE',
  'PORTAL_DATA_DIR',
  'PORTAL_ENVIRONMENT',
  'PORTAL_ENVIRONMENT_MANIFEST',
  'PORTAL_HOST_DIR',
  'PORTAL_REMOTES_DIR',
  'PORTAL_DEV_REMOTES',
  'PORTAL_SEED_DEMO',
  'PORTAL_LOGIN_MAX_FAILURES',
  'PORTAL_CHALLENGE_SECRET',
  'PORTAL_CHALLENGE_COST',
  'PORTAL_SESSION_IDLE_MINUTES',
  'PORTAL_SESSION_ABSOLUTE_HOURS',
  'PORTAL_TLS_CERT',
  'PORTAL_TLS_KEY',
  'PORTAL_TLS_CLIENT_CA',
  'PORTAL_TRUSTED_PROXIES',
  'PORTAL_MAIL_POLL_MS',
  'PORTAL_PERSONAL_EMAIL_DOMAINS',
  'PORTAL_PUBLIC_URL',
] as const;

// ---------------------------------------------------------------------------------------------
// Values

type Kind = 'boolean' | 'text' | 'services' | 'theme' | 'expiry' | 'url';

const KINDS: Record<ConfigurationKey, Kind> = {
  cac_support: 'boolean',
  auto_cert_registration_approval: 'boolean',
  brand: 'text',
  email_domain: 'text',
  css_theme: 'theme',
  wiki_url: 'url',
  login_logo_filename: 'text',
  show_login_agreement: 'boolean',
  login_agreement_filename: 'text',
  supported_services: 'services',
  artifacts_token_max_expiry: 'expiry',
  artifacts_token_default_expiry: 'expiry',
  artifacts_token_revocable_expiry: 'expiry',
  artifacts_profile_url: 'url',
};

type Parsed = { ok: true; value: string | number | boolean } | { ok: false; problem: string };
const ok = (value: string | number | boolean): Parsed => ({ ok: true, value });
const bad = (problem: string): Parsed => ({ ok: false, problem });

const TRUE_WORDS = ['true', '1', 'yes'];
const FALSE_WORDS = ['false', '0', 'no'];

export function parseBooleanText(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return undefined;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value) ?? String(value);
}

function parseServices(text: string): Parsed {
  const ids: string[] = [];
  for (const part of text.split(',')) {
    const id = part.trim().toLowerCase();
    if (id === '') continue;
    if (!(SERVICES as readonly string[]).includes(id)) {
      return bad(`unknown service '${part.trim()}' (known: ${SERVICES.join(', ')})`);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ok(ids.join(','));
}

function parseUrl(text: string): Parsed {
  if (text === 'undefined') return ok(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return bad(`${quote(text)} is not a URL; give an http(s) URL or 'undefined'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return bad(`${quote(text)} is not an http(s) URL; give an http(s) URL or 'undefined'`);
  }
  return ok(text);
}

/** Checks a value of a configuration key; `fromEnv` means it is text to interpret. */
function parseValue(kind: Kind, value: unknown, fromEnv: boolean): Parsed {
  switch (kind) {
    case 'boolean': {
      if (typeof value === 'boolean') return ok(value);
      if (fromEnv && typeof value === 'string') {
        const parsed = parseBooleanText(value);
        if (parsed !== undefined) return ok(parsed);
        return bad(`${quote(value)} is not a boolean; use true, false, 1, 0, yes or no`);
      }
      return bad(`${quote(value)} is not a boolean; use true or false`);
    }
    case 'expiry': {
      let number: number | undefined;
      if (typeof value === 'number') number = value;
      else if (fromEnv && typeof value === 'string' && /^\s*\d+\s*$/.test(value)) number = Number(value);
      if (number === undefined || !Number.isSafeInteger(number) || number < 1) {
        return bad(`${quote(value)} is not a whole number of at least 1`);
      }
      return ok(number);
    }
    default: {
      if (typeof value !== 'string') return bad(`${quote(value)} is not a string`);
      if (kind === 'services') return parseServices(value);
      if (kind === 'url') return parseUrl(value.trim());
      if (kind === 'theme') {
        const theme = value.trim();
        return (CSS_THEMES as readonly string[]).includes(theme)
          ? ok(theme)
          : bad(`${quote(value)} is not a theme (known: ${CSS_THEMES.join(', ')})`);
      }
      return ok(value);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The portal configuration

function readConfigFile(file: string, problems: string[]): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problems.push(
      code === 'ENOENT'
        ? `PORTAL_CONFIG_FILE: ${file} does not exist`
        : `PORTAL_CONFIG_FILE: cannot read ${file} (${code ?? 'unknown error'})`,
    );
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    problems.push(`PORTAL_CONFIG_FILE: ${file} is not valid JSON (${(error as Error).message})`);
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push(`PORTAL_CONFIG_FILE: ${file} must hold a JSON object of configuration keys`);
    return undefined;
  }
  return parsed as Record<string, unknown>;
}

function collectPortalConfiguration(env: Env, cwd: string, problems: string[]): PortalConfiguration {
  const config: PortalConfiguration = { ...DEFAULT_CONFIGURATION };
  // Written key by key; parseValue gives each key a value of the type its kind stands for.
  const values: Record<ConfigurationKey, unknown> = config;
  const invalid = new Set<ConfigurationKey>();
  const fileName = nonEmpty(env.PORTAL_CONFIG_FILE);
  if (fileName !== undefined) {
    const file = resolve(cwd, fileName);
    const content = readConfigFile(file, problems);
    for (const [key, value] of Object.entries(content ?? {})) {
      if (!(CONFIGURATION_KEYS as readonly string[]).includes(key)) {
        problems.push(`${key}: unknown key in ${file} (known: ${CONFIGURATION_KEYS.join(', ')})`);
        continue;
      }
      const known = key as ConfigurationKey;
      const parsed = parseValue(KINDS[known], value, false);
      if (parsed.ok) values[known] = parsed.value;
      else {
        invalid.add(known);
        problems.push(`${key}: ${parsed.problem} (in ${file})`);
      }
    }
  }
  for (const key of CONFIGURATION_KEYS) {
    const text = nonEmpty(env[envVarFor(key)]);
    if (text === undefined) continue;
    const parsed = parseValue(KINDS[key], text, true);
    if (parsed.ok) {
      values[key] = parsed.value;
      invalid.delete(key); // the environment overrides a bad value in the file
    } else {
      invalid.add(key);
      problems.push(`${key}: ${parsed.problem} (from ${envVarFor(key)})`);
    }
  }
  // The maximum and the default are in days; the revocable threshold is in hours (spec sections 4 and 9).
  const max = config.artifacts_token_max_expiry;
  if (!invalid.has('artifacts_token_max_expiry')) {
    const def = config.artifacts_token_default_expiry;
    if (!invalid.has('artifacts_token_default_expiry') && def > max) {
      problems.push(`artifacts_token_default_expiry: ${def} is more than artifacts_token_max_expiry (${max})`);
    }
    const revocable = config.artifacts_token_revocable_expiry;
    if (!invalid.has('artifacts_token_revocable_expiry') && revocable > max * 24) {
      problems.push(
        `artifacts_token_revocable_expiry: ${revocable} hours is longer than artifacts_token_max_expiry (${max} days = ${max * 24} hours)`,
      );
    }
  }
  return config;
}

// ---------------------------------------------------------------------------------------------
// Server settings

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function parsePort(text: string | undefined, problems: string[]): number {
  if (text === undefined) return 8080;
  const port = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(port) || port > 65535) {
    problems.push(`PORT: ${quote(text)} is not a port number (0 to 65535)`);
    return 8080;
  }
  return port;
}

function parseDatabaseUrl(text: string | undefined, problems: string[]): string | undefined {
  if (text === undefined) return undefined;
  let protocol = '';
  try {
    protocol = new URL(text).protocol;
  } catch {
    // reported below; the value may hold a password, so it is never echoed
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    problems.push('DATABASE_URL: must be a postgres:// or postgresql:// URL (unset it to use the embedded database)');
    return undefined;
  }
  return text;
}

function parseDevRemotes(text: string | undefined, problems: string[]): Record<string, string> {
  const remotes: Record<string, string> = {};
  if (text === undefined) return remotes;
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const at = item.indexOf('=');
    const name = at < 0 ? item : item.slice(0, at).trim();
    const entry = at < 0 ? '' : item.slice(at + 1).trim();
    if (!REMOTE_NAME.test(name)) {
      problems.push(`PORTAL_DEV_REMOTES: ${quote(name)} is not a remote name (expected name=url, e.g. groups=http://localhost:3102/mf-manifest.json)`);
    } else if (!/^(https?:\/\/[^/]|\/)/.test(entry)) {
      problems.push(`PORTAL_DEV_REMOTES: the entry of '${name}' must be an http(s) URL or a path starting with /`);
    } else if (name in remotes) {
      problems.push(`PORTAL_DEV_REMOTES: '${name}' is given twice`);
    } else {
      remotes[name] = entry;
    }
  }
  return remotes;
}

function parseCount(name: string, text: string | undefined, fallback: number, max: number, problems: string[]): number {
  if (text === undefined) return fallback;
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    problems.push(`${name}: ${quote(text)} is not a whole number from 1 to ${max}`);
    return fallback;
  }
  return value;
}

function parseTrustedProxies(text: string | undefined, problems: string[]): string[] {
  if (text === undefined) return [];
  const addresses: string[] = [];
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    if (isIP(item) === 0) problems.push(`PORTAL_TRUSTED_PROXIES: ${quote(item)} is not an IP address`);
    else addresses.push(normalizeAddress(item));
  }
  return addresses;
}

/** '::ffff:10.0.0.1' (an IPv4 peer on a dual-stack socket) → '10.0.0.1'; IPv6 in lower case. */
export function normalizeAddress(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}

function parseSmtpUrl(text: string | undefined, problems: string[]): string | undefined {
  if (text === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    // reported below; the value may hold a password, so it is never echoed
  }
  if (url === undefined || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    problems.push('SMTP_URL: must be an smtp:// or smtps:// URL with a host, e.g. smtp://mail.example.test:587 (unset it to keep mail in the outbox)');
    return undefined;
  }
  return text.trim();
}

function parseMailFrom(text: string | undefined, problems: string[]): string | undefined {
  if (text === undefined) return undefined;
  const address = text.trim();
  if (!isMailAddress(address)) {
    problems.push(`MAIL_FROM: ${quote(address.replace(/[\r\n]/g, ' '))} is not one email address`);
    return undefined;
  }
  return address;
}

const DOMAIN_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Comma-separated domains; 'none' for an empty list. */
function parsePersonalEmailDomains(text: string | undefined, problems: string[]): readonly string[] {
  if (text === undefined) return DEFAULT_PERSONAL_EMAIL_DOMAINS;
  if (text.trim().toLowerCase() === 'none') return [];
  const domains: string[] = [];
  for (const part of text.split(',')) {
    const domain = part.trim().toLowerCase().replace(/^@/, '');
    if (domain === '') continue;
    if (!DOMAIN_NAME.test(domain)) problems.push(`PORTAL_PERSONAL_EMAIL_DOMAINS: ${quote(part.trim())} is not a domain name (e.g. gmail.com; 'none' for no list)`);
    else if (!domains.includes(domain)) domains.push(domain);
  }
  return domains;
}

function parsePublicUrl(text: string | undefined, problems: string[]): string | undefined {
  if (text === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    // reported below
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    problems.push(`PORTAL_PUBLIC_URL: ${quote(text.trim())} is not an http(s) address without query or fragment, e.g. https://portal.example.test`);
    return undefined;
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function collectServerSettings(env: Env, cwd: string, problems: string[]): ServerSettings {
  const databaseUrl = parseDatabaseUrl(nonEmpty(env.DATABASE_URL), problems);
  const host = nonEmpty(env.HOST)?.trim() ?? 'localhost';

  let environment = nonEmpty(env.PORTAL_ENVIRONMENT)?.trim() ?? 'local';
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(environment)) {
    problems.push(`PORTAL_ENVIRONMENT: ${quote(environment)} is not an environment name (letters, digits, - and _)`);
    environment = 'local';
  }

  const nodeEnv = nonEmpty(env.NODE_ENV)?.trim() ?? 'development';

  let logLevel: LogLevel = 'info';
  const levelText = nonEmpty(env.LOG_LEVEL)?.trim().toLowerCase();
  if (levelText !== undefined) {
    if ((LOG_LEVELS as readonly string[]).includes(levelText)) logLevel = levelText as LogLevel;
    else problems.push(`LOG_LEVEL: ${quote(env.LOG_LEVEL)} is not a log level (known: ${LOG_LEVELS.join(', ')})`);
  }

  let seedDemo = databaseUrl === undefined && nodeEnv !== 'production';
  const seedText = nonEmpty(env.PORTAL_SEED_DEMO);
  if (seedText !== undefined) {
    const parsed = parseBooleanText(seedText);
    if (parsed === undefined) problems.push(`PORTAL_SEED_DEMO: ${quote(seedText)} is not a boolean; use true, false, 1, 0, yes or no`);
    else seedDemo = parsed;
  }

  const path = (name: string, fallback: string): string => {
    const value = nonEmpty(env[name]);
    return value === undefined ? fallback : resolve(cwd, value);
  };
  const remotesDir = nonEmpty(env.PORTAL_REMOTES_DIR);
  const optionalPath = (name: string): string | undefined => {
    const value = nonEmpty(env[name]);
    return value === undefined ? undefined : resolve(cwd, value.trim());
  };
  const tlsCert = optionalPath('PORTAL_TLS_CERT');
  const tlsKey = optionalPath('PORTAL_TLS_KEY');
  const tlsClientCa = optionalPath('PORTAL_TLS_CLIENT_CA');
  if ((tlsCert === undefined) !== (tlsKey === undefined)) {
    problems.push('PORTAL_TLS_CERT, PORTAL_TLS_KEY: set both (HTTPS) or neither (HTTP)');
  }
  if (tlsClientCa !== undefined && tlsCert === undefined) {
    problems.push('PORTAL_TLS_CLIENT_CA: needs HTTPS (PORTAL_TLS_CERT and PORTAL_TLS_KEY)');
  }
  const challengeSecret = nonEmpty(env.PORTAL_CHALLENGE_SECRET);
  if (challengeSecret !== undefined && challengeSecret.length < 32) {
    problems.push('PORTAL_CHALLENGE_SECRET: must be at least 32 characters long (or unset, for a generated one)');
  }

  return {
    port: parsePort(nonEmpty(env.PORT), problems),
    host,
    databaseUrl,
    dataDir: path('PORTAL_DATA_DIR', resolve(cwd, 'data')),
    environment,
    environmentManifest: path('PORTAL_ENVIRONMENT_MANIFEST', join(SERVER_DIR, 'environments', `${environment}.json`)),
    hostDir: path('PORTAL_HOST_DIR', join(REPO_DIR, 'host', 'dist')),
    remotesDir: remotesDir === undefined ? undefined : resolve(cwd, remotesDir),
    devRemotes: parseDevRemotes(nonEmpty(env.PORTAL_DEV_REMOTES), problems),
    nodeEnv,
    seedDemo,
    logLevel,
    loginMaxFailures: parseCount('PORTAL_LOGIN_MAX_FAILURES', nonEmpty(env.PORTAL_LOGIN_MAX_FAILURES), 5, 1000, problems),
    challengeSecret,
    challengeCost: parseCount('PORTAL_CHALLENGE_COST', nonEmpty(env.PORTAL_CHALLENGE_COST), DEFAULT_CHALLENGE_COST, 10_000_000, problems),
    sessionIdleMinutes: parseCount('PORTAL_SESSION_IDLE_MINUTES', nonEmpty(env.PORTAL_SESSION_IDLE_MINUTES), 30, 60 * 24 * 30, problems),
    sessionAbsoluteHours: parseCount('PORTAL_SESSION_ABSOLUTE_HOURS', nonEmpty(env.PORTAL_SESSION_ABSOLUTE_HOURS), 12, 24 * 365, problems),
    tlsCert,
    tlsKey,
    tlsClientCa,
    trustedProxies: parseTrustedProxies(nonEmpty(env.PORTAL_TRUSTED_PROXIES), problems),
    smtpUrl: parseSmtpUrl(nonEmpty(env.SMTP_URL), problems),
    mailFrom: parseMailFrom(nonEmpty(env.MAIL_FROM), problems),
    mailPollMs: parseCount('PORTAL_MAIL_POLL_MS', nonEmpty(env.PORTAL_MAIL_POLL_MS), DEFAULT_MAIL_POLL_MS, 3_600_000, problems),
    personalEmailDomains: parsePersonalEmailDomains(nonEmpty(env.PORTAL_PERSONAL_EMAIL_DOMAINS), problems),
    publicUrl: parsePublicUrl(nonEmpty(env.PORTAL_PUBLIC_URL), problems),
  };
}

function unknownPortalVariables(env: Env): string[] {
  const known = new Set<string>([...SERVER_VARIABLES, ...CONFIGURATION_KEYS.map(envVarFor)]);
  return Object.keys(env)
    .filter((name) => name.startsWith('PORTAL_') && !known.has(name))
    .sort()
    .map((name) => `${name} is not a setting of the server; it is ignored`);
}

// ---------------------------------------------------------------------------------------------
// Entry points

/** The portal configuration alone (defaults → file → environment). Throws ConfigError. */
export function loadPortalConfiguration(options: LoadOptions = {}): PortalConfiguration {
  const problems: string[] = [];
  const config = collectPortalConfiguration(options.env ?? process.env, options.cwd ?? process.cwd(), problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The server settings alone (environment only). Throws ConfigError. */
export function loadServerSettings(options: LoadOptions = {}): ServerSettings {
  const problems: string[] = [];
  const settings = collectServerSettings(options.env ?? process.env, options.cwd ?? process.cwd(), problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}

/** Everything main needs; all problems of both parts are reported together. Throws ConfigError. */
export function loadSettings(options: LoadOptions = {}): Settings {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const problems: string[] = [];
  const portal = collectPortalConfiguration(env, cwd, problems);
  const server = collectServerSettings(env, cwd, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return { portal, server, warnings: unknownPortalVariables(env) };
}
