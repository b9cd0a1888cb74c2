/**
 * How the server names the address it listens on (main.ts prints it at start; the OpenID
 * provider's issuer is built from it when PORTAL_PUBLIC_URL is not set).
 */
export function shownHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
}
