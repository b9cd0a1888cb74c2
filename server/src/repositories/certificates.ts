/** Smart-card bindings: account ↔ certificate identity (DoD identity number or SHA-256 fingerprint). */
import type { Queryable } from '../db/database.js';

export interface CertificateDetails {
  identity: string;
  fingerprint: string | null;
  subject: string | null;
  issuer: string | null;
  validFrom: Date | null;
  validUntil: Date | null;
}

export async function bindCertificate(db: Queryable, accountId: number, certificate: CertificateDetails): Promise<void> {
  await db.query(
    `insert into account_certificates (account_id, identity, fingerprint, subject, issuer, valid_from, valid_until)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [accountId, certificate.identity, certificate.fingerprint, certificate.subject, certificate.issuer, certificate.validFrom, certificate.validUntil],
  );
}

export async function findAccountIdByCertificateIdentity(db: Queryable, identity: string): Promise<number | undefined> {
  const { rows } = await db.query<{ account_id: string | number }>('select account_id from account_certificates where identity = $1', [identity]);
  return rows[0] ? Number(rows[0].account_id) : undefined;
}

/** Keeps the binding's details current with the certificate last used (e.g. a renewed card, a renamed CN). */
export async function updateCertificateDetails(db: Queryable, certificate: CertificateDetails): Promise<void> {
  await db.query(
    `update account_certificates set fingerprint = $2, subject = $3, issuer = $4, valid_from = $5, valid_until = $6
      where identity = $1`,
    [certificate.identity, certificate.fingerprint, certificate.subject, certificate.issuer, certificate.validFrom, certificate.validUntil],
  );
}

/** Removes every smart card bound to the account (it no longer signs in with one). */
export async function removeCertificates(db: Queryable, accountId: number): Promise<void> {
  await db.query('delete from account_certificates where account_id = $1', [accountId]);
}
