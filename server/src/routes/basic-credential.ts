/**
 * The credential of an HTTP Basic Authorization header, as RFC 6749 section 2.3.1 has OAuth clients
 * send it: name and secret each form-encoded, then joined by ':' and base64-encoded. Reading a
 * header is the route's work; checking the credential is the service's.
 */
export interface BasicCredential {
  name: string;
  secret: string;
}

/**
 * The name and secret of 'Basic base64(name:secret)', or undefined when the header is not one. The
 * scheme's name is case-insensitive (RFC 9110 section 11.1).
 */
export function basicCredential(authorization: string | undefined): BasicCredential | undefined {
  const match = /^Basic +([A-Za-z0-9+/=]{1,1000})$/i.exec(authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  try {
    return {
      name: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return undefined;
  }
}
