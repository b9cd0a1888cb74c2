/**
 * The keys the provider signs ID tokens with, kept in the database so that every server signs
 * with the same key and publishes the same JWKS. The first server to start makes an RS256 key.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Queryable } from '../../../db/database.js';
import { insertFirstOidcSigningKey, listOidcSigningKeys } from '../../../repositories/service-sign-in/oidc.js';

export type PrivateJwk = Record<string, unknown>;

function newRs256Key(): PrivateJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/** The signing keys, oldest first; the first is made (and stored) when there is none. */
export async function ensureSigningKeys(db: Queryable): Promise<PrivateJwk[]> {
  const keys = await listOidcSigningKeys(db);
  if (keys.length > 0) return keys;
  // Two servers starting together both try; the database keeps one, and both read it back.
  await insertFirstOidcSigningKey(db, newRs256Key());
  return listOidcSigningKeys(db);
}
