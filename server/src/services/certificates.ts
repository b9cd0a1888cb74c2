/**
 * Smart-card certificates. The identity an account binds to is the DoD identity number (the
 * last dot-separated part of the CN, ten digits, e.g. DOE.JOHN.QUINCY.1234567890), else the
 * certificate's SHA-256 fingerprint; never the name, which changes (marriage, a typo fixed).
 */
import { X509Certificate } from 'node:crypto';
import type { Certificate, CertificateName } from '@portal/api';
import type { CertificateDetails } from '../repositories/certificates.js';

const DOD_ID = /^\d{10}$/;

/** The subject's common name (the last CN when there are several). */
export function commonNameOf(subject: string): string | undefined {
  let cn: string | undefined;
  for (const line of subject.split('\n')) {
    if (line.startsWith('CN=')) cn = line.slice(3);
  }
  return cn;
}

export function identityOf(certificate: X509Certificate): string {
  const cn = commonNameOf(certificate.subject);
  const last = cn?.split('.').pop()?.trim();
  if (last !== undefined && DOD_ID.test(last)) return last;
  return fingerprintOf(certificate);
}

/** SHA-256 of the DER, lower-case hex without separators. */
export function fingerprintOf(certificate: X509Certificate): string {
  return certificate.fingerprint256.replace(/:/g, '').toLowerCase();
}

export function certificateDetails(certificate: X509Certificate): CertificateDetails {
  return {
    identity: identityOf(certificate),
    fingerprint: fingerprintOf(certificate),
    subject: certificate.subject,
    issuer: certificate.issuer,
    validFrom: new Date(certificate.validFrom),
    validUntil: new Date(certificate.validTo),
  };
}

/** A certificate from DER bytes or PEM text; undefined when it is not one. */
export function parseCertificate(data: Buffer | string): X509Certificate | undefined {
  try {
    return new X509Certificate(data);
  } catch {
    return undefined;
  }
}

/** Whether the certificate is within its validity period at `now`. */
export function isCurrentlyValid(certificate: X509Certificate, now: Date): boolean {
  const from = new Date(certificate.validFrom).getTime();
  const to = new Date(certificate.validTo).getTime();
  return Number.isFinite(from) && Number.isFinite(to) && from <= now.getTime() && now.getTime() <= to;
}

/**
 * A certificate as a request keeps it (in `details.certificate`): spec section 3's Certificate
 * (issued_to, issued_by, valid_from, valid_until, country_of_citizenship) plus what binding it
 * to an account needs (identity, fingerprint, subject, issuer: see repositories/certificates.ts).
 * Its country of citizenship is not read from the certificate (yet): null, which the screens show
 * as 'Unknown'.
 */
export type CertificateRecord = Required<Certificate> & {
  identity: string;
  fingerprint: string | null;
  subject: string | null;
  issuer: string | null;
};

/** The value of an attribute as node's X509Certificate prints it (quoted values are JSON strings). */
function attributeValue(raw: string): string {
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // not JSON: kept as printed
    }
  }
  return raw;
}

/**
 * A subject or issuer as node's X509Certificate prints it, one attribute a line
 * ("C=US\nO=U.S. Government\nOU=DoD\nOU=PKI\nCN=DOE.JOHN.1234567890"), in spec section 3's
 * shape. The common name is the last CN (the most specific), the organization and country the
 * first, every OU in order.
 */
export function certificateNameOf(dn: string | null): CertificateName {
  const name: CertificateName = { common_name: '', organization: '', organizational_unit: [], country: '' };
  for (const line of (dn ?? '').split('\n')) {
    const equals = line.indexOf('=');
    if (equals <= 0) continue;
    const key = line.slice(0, equals).trim().toUpperCase();
    const value = attributeValue(line.slice(equals + 1).trim());
    if (key === 'CN') name.common_name = value;
    else if (key === 'O' && name.organization === '') name.organization = value;
    else if (key === 'OU') name.organizational_unit.push(value);
    else if (key === 'C' && name.country === '') name.country = value;
  }
  return name;
}

export function certificateRecordOf(details: CertificateDetails): CertificateRecord {
  return {
    identity: details.identity,
    fingerprint: details.fingerprint,
    subject: details.subject,
    issuer: details.issuer,
    issued_to: certificateNameOf(details.subject),
    issued_by: certificateNameOf(details.issuer),
    valid_from: details.validFrom ? details.validFrom.toISOString() : null,
    valid_until: details.validUntil ? details.validUntil.toISOString() : null,
    country_of_citizenship: null,
  };
}
