/**
 * Smart-card certificates. The identity an account binds to is the DoD identity number (the
 * last dot-separated part of the CN, ten digits, e.g. DOE.JOHN.QUINCY.1234567890), else the
 * certificate's SHA-256 fingerprint; never the name, which changes (marriage, a typo fixed).
 */
import { X509Certificate } from 'node:crypto';
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
