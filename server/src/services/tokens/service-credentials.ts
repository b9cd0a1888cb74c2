/**
 * The credentials platform services introspect tokens with (`portal service-credentials …`):
 * a name (the client id) and a secret of 256 random bits shown once; only its hash is kept.
 * Rotating replaces the secret at once (the old one stops working).
 */
import type { Queryable } from '../../db/database.js';
import {
  deleteServiceCredential,
  insertServiceCredential,
  listServiceCredentials,
  rotateServiceCredential,
} from '../../repositories/tokens.js';
import { newSecret, secretHash } from './issuer.js';

export const SERVICE_NAME = /^[a-z][a-z0-9-]{1,62}$/;
export const SERVICE_SECRET_PREFIX = 'psc_';

export class ServiceCredentialError extends Error {}

function checkName(name: string): void {
  if (!SERVICE_NAME.test(name)) {
    throw new ServiceCredentialError(`'${name}' is not a service name: 2 to 63 lower-case letters, digits or hyphens, starting with a letter.`);
  }
}

/** Creates a credential; returns its secret (shown once). */
export async function createServiceCredential(db: Queryable, name: string, now: Date): Promise<string> {
  checkName(name);
  const secret = newSecret(SERVICE_SECRET_PREFIX);
  if (!(await insertServiceCredential(db, name, secretHash(secret), now))) {
    throw new ServiceCredentialError(`A credential for '${name}' exists already. Use 'service-credentials rotate ${name}' for a new secret.`);
  }
  return secret;
}

/** Gives a credential a new secret; returns it (shown once). */
export async function rotateServiceSecret(db: Queryable, name: string, now: Date): Promise<string> {
  checkName(name);
  const secret = newSecret(SERVICE_SECRET_PREFIX);
  if (!(await rotateServiceCredential(db, name, secretHash(secret), now))) throw new ServiceCredentialError(`There is no credential for '${name}'.`);
  return secret;
}

export async function removeServiceCredential(db: Queryable, name: string): Promise<void> {
  checkName(name);
  if (!(await deleteServiceCredential(db, name))) throw new ServiceCredentialError(`There is no credential for '${name}'.`);
}

export type ServiceCredentialAction = 'create' | 'rotate' | 'delete' | 'list';

export interface ServiceCredentialResult {
  /** create and rotate: the secret, shown once. */
  secret?: string;
  /** list */
  credentials?: { name: string; created_at: string; rotated_at: string | null }[];
}

/** `portal service-credentials <action> [name]`, on the database the command line reached. */
export async function runServiceCredentialCommand(db: Queryable, action: ServiceCredentialAction, name: string | undefined, now: Date): Promise<ServiceCredentialResult> {
  if (action === 'list') {
    const rows = await listServiceCredentials(db);
    return { credentials: rows.map((r) => ({ name: r.name, created_at: r.createdAt.toISOString(), rotated_at: r.rotatedAt?.toISOString() ?? null })) };
  }
  if (name === undefined) throw new ServiceCredentialError(`service-credentials ${action} needs a service name.`);
  if (action === 'create') return { secret: await createServiceCredential(db, name, now) };
  if (action === 'rotate') return { secret: await rotateServiceSecret(db, name, now) };
  await removeServiceCredential(db, name);
  return {};
}
