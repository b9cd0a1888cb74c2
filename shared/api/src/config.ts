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
});

export const CONFIGURATION_KEYS = Object.keys(DEFAULT_CONFIGURATION) as ConfigurationKey[];

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
