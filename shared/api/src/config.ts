/**
 * The portal configuration of spec section 3, as GET /accounts/rest/configuration returns it,
 * and the defaults of spec section 8 that apply where a key is unset.
 */

/** Every service the platform knows (spec section 3, "Services"). */
export const SERVICES = [
  'artifacts',
  'bitbucket',
  'confluence',
  'jenkins',
  'jira',
  'jsm',
  'sonarqube',
  'repository',
] as const;
export type Service = (typeof SERVICES)[number];

export const CSS_THEMES = ['light', 'dark', 'undefined'] as const;
export type CssTheme = (typeof CSS_THEMES)[number];

export interface PortalConfiguration {
  cac_support: boolean;
  auto_cert_registration_approval: boolean;
  brand: string;
  email_domain: string;
  /** 'light' or 'dark'; 'undefined' (the spec's default) follows the reader's system preference. */
  css_theme: CssTheme;
  wiki_url: string;
  login_logo_filename: string;
  show_login_agreement: boolean;
  login_agreement_filename: string;
  /** Comma-separated service ids, e.g. "artifacts,jira". Empty means none. */
  supported_services: string;
  artifacts_token_max_expiry: number;
  artifacts_token_default_expiry: number;
  artifacts_token_revocable_expiry: number;
  artifacts_profile_url: string;
  /** The portal's own: the source host's address, for /tokens/services ('undefined': no link). */
  bitbucket_url: string;
  /** The portal's own: the issue tracker's address, for /tokens/services ('undefined': no link). */
  jira_url: string;
  /**
   * The portal's own (not among the spec's keys): the page /login's "Login help" opens. 'undefined': the wiki's
   * login help page (`{wiki_url}/display/WEB/Login+Help`, see loginHelpUrl), or no link without a wiki.
   */
  login_help_url: string;
  /**
   * The portal's own: the platform services a sign-in may send the user back to, as
   * 'service=origin' pairs ("jira=https://jira.example.test,confluence=https://wiki.example.test").
   * Any other origin in a redirect is refused (server/docs/self-service.md, "Sign-in redirects").
   */
  service_origins: string;
}

export type ConfigurationKey = keyof PortalConfiguration;

/** Spec section 8: what applies when a key is not configured (and what the UI uses when loading fails). */
export const DEFAULT_CONFIGURATION: Readonly<PortalConfiguration> = Object.freeze({
  cac_support: true,
  auto_cert_registration_approval: true,
  brand: 'undefined',
  email_domain: 'undefined',
  css_theme: 'undefined',
  wiki_url: 'undefined',
  login_logo_filename: 'undefined',
  show_login_agreement: true,
  login_agreement_filename: 'undefined',
  supported_services: '',
  artifacts_token_max_expiry: 180,
  artifacts_token_default_expiry: 180,
  artifacts_token_revocable_expiry: 1,
  artifacts_profile_url: 'undefined',
  bitbucket_url: 'undefined',
  jira_url: 'undefined',
  login_help_url: 'undefined',
  service_origins: '',
});

/** The wiki page "Login help" opens when login_help_url is not set (Confluence's address in the WEB space, as for the roles page). */
export const LOGIN_HELP_PAGE_PATH = 'display/WEB/Login+Help';

const isHttpUrl = (value: string) => /^https?:\/\/[^\s]+$/i.test(value.trim());

/** Where "Login help" goes: login_help_url, else the wiki's login help page, else nowhere (no link). */
export function loginHelpUrl(config: Pick<PortalConfiguration, 'login_help_url' | 'wiki_url'>): string | undefined {
  if (isHttpUrl(config.login_help_url)) return config.login_help_url.trim();
  if (!isHttpUrl(config.wiki_url)) return undefined;
  return `${config.wiki_url.trim().replace(/\/+$/, '')}/${LOGIN_HELP_PAGE_PATH}`;
}

export const CONFIGURATION_KEYS = Object.keys(DEFAULT_CONFIGURATION) as ConfigurationKey[];

/** The portal's name as its top bar shows it: the configured brand, or "Portal" where none is set. */
export function brandName(config: Pick<PortalConfiguration, 'brand'>): string {
  return config.brand && config.brand !== 'undefined' ? config.brand : 'Portal';
}

/** The services named by `supported_services`, in the order given, without blanks or repeats. */
export function supportedServices(config: Pick<PortalConfiguration, 'supported_services'>): Service[] {
  const seen = new Set<Service>();
  for (const part of config.supported_services.split(',')) {
    const id = part.trim().toLowerCase();
    if ((SERVICES as readonly string[]).includes(id)) seen.add(id as Service);
  }
  return [...seen];
}

export function isServiceSupported(config: Pick<PortalConfiguration, 'supported_services'>, service: Service): boolean {
  return supportedServices(config).includes(service);
}

/** The help address: the fixed user part 'web' at the configured email domain (spec section 1). */
export function contactAddress(config: Pick<PortalConfiguration, 'email_domain'>): string {
  return `web@${config.email_domain}`;
}

/** One service and the origin it is served from ('https://jira.example.test'). */
export interface ServiceOrigin {
  readonly service: Service;
  readonly origin: string;
}

/** The origin of an http(s) URL (lower-case scheme and host, default port left out), else undefined. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The pairs of `service_origins` that name a known service and an http(s) origin; with `problems`, what is wrong with the others. */
export function serviceOrigins(config: Pick<PortalConfiguration, 'service_origins'>, problems?: string[]): ServiceOrigin[] {
  const pairs: ServiceOrigin[] = [];
  for (const part of config.service_origins.split(',')) {
    const text = part.trim();
    if (text === '') continue;
    const equals = text.indexOf('=');
    const service = text.slice(0, Math.max(equals, 0)).trim().toLowerCase();
    const origin = equals < 0 ? undefined : originOf(text.slice(equals + 1).trim());
    if (!(SERVICES as readonly string[]).includes(service) || origin === undefined) {
      problems?.push(`'${text}' is not service=origin with a known service and an http(s) address`);
      continue;
    }
    pairs.push({ service: service as Service, origin });
  }
  return pairs;
}

/**
 * Where a redirect parameter may send a user (never to another site that could pose as the portal): a path on this site (as safeRedirect
 * decides), or an http(s) address on a configured service's origin (then with its service), or
 * on the wiki's (the platform's wiki is Confluence: its service, unless service_origins names that
 * origin for another). Anything else: undefined (refused).
 */
export function externalRedirect(
  value: string | null | undefined,
  config: Pick<PortalConfiguration, 'service_origins' | 'wiki_url'>,
): { href: string; service?: Service } | undefined {
  if (!value || [...value].some((c) => c.charCodeAt(0) < 0x20)) return undefined;
  if (!/^https?:\/\//i.test(value)) return undefined;
  const origin = originOf(value);
  if (origin === undefined) return undefined;
  const match = serviceOrigins(config).find((pair) => pair.origin === origin);
  if (match) return { href: new URL(value).href, service: match.service };
  if (originOf(config.wiki_url) === origin) return { href: new URL(value).href, service: 'confluence' };
  return undefined;
}
