/**
 * The keys the provider signs ID tokens (and back-channel logout tokens) with, kept in the database
 * so that every server signs with the same key and publishes the same JWKS. The first server to
 * start makes an RS256 key (generation 1); `portal oidc-keys rotate` adds the next generation.
 *
 * The newest PUBLISHED_GENERATIONS are published at /oidc/jwks, so a token signed before a
 * rotation still verifies after it. A rotation deletes the generations older than those: a token
 * signed by one of them (ID tokens last an hour) no longer verifies, so rotate at most twice within
 * an hour. A running server reads the newest generation again at most every KEY_CHECK_SECONDS
 * (routes/service-sign-in/oidc.ts), so every server publishes a new key within that; the new key
 * signs only from ACTIVATION_SECONDS after the rotation, when every server publishes it already (a
 * relying party that reads the JWKS from any of them can verify what any of them signs).
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Queryable } from '../../../db/database.js';
import { ConflictError } from '../../../errors.js';
import {
  insertFirstOidcSigningKey,
  insertNextOidcSigningKey,
  listOidcSigningKeys,
  newestOidcSigningGeneration,
  type OidcSigningKeyRecord,
} from '../../../repositories/service-sign-in/oidc.js';

export type PrivateJwk = Record<string, unknown>;

/** How many generations are published (and kept): the signing one and the two before it. */
export const PUBLISHED_GENERATIONS = 3;
/** How long a running server may go on without publishing a key a rotation added, at most. */
export const KEY_CHECK_SECONDS = 30;
/** How long after a rotation its key starts signing: twice the above, for the servers' clocks. */
export const ACTIVATION_SECONDS = 2 * KEY_CHECK_SECONDS;

export const OIDC_KEY_MESSAGES = {
  raced: 'Another rotation added a key at the same moment. Run oidc-keys list to see the keys, and rotate again if you still want a new one.',
} as const;

function newRs256Key(): PrivateJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

export interface SigningKeys {
  /** The newest generation (published; it may not sign yet). */
  generation: number;
  /** The private JWKs published, the signing key first, then the others newest first. */
  keys: PrivateJwk[];
  /** When the newest key starts signing, if it does not yet (the keys are then read again). */
  activatesAt?: Date;
}

/** Whether a key signs at `now`: made ACTIVATION_SECONDS before it, or the oldest kept. */
function activeAt(record: OidcSigningKeyRecord, index: number, records: OidcSigningKeyRecord[], now: Date): boolean {
  return index === records.length - 1 || record.createdAt.getTime() + ACTIVATION_SECONDS * 1000 <= now.getTime();
}

/** The published keys, the one that signs at `now` first; the first key is made (and stored) when there is none. */
export async function ensureSigningKeys(db: Queryable, now: Date): Promise<SigningKeys> {
  let records = await listOidcSigningKeys(db, PUBLISHED_GENERATIONS);
  if (records.length === 0) {
    // Two servers starting together both try; the database keeps one, and both read it back.
    await insertFirstOidcSigningKey(db, newRs256Key());
    records = await listOidcSigningKeys(db, PUBLISHED_GENERATIONS);
  }
  const signing = records.findIndex((record, index) => activeAt(record, index, records, now));
  const ordered = [records[signing], ...records.filter((_, index) => index !== signing)].filter((r) => r !== undefined);
  const newest = records[0];
  return {
    generation: newest?.generation ?? 0,
    keys: ordered.map((record) => record.jwk),
    ...(signing > 0 && newest ? { activatesAt: new Date(newest.createdAt.getTime() + ACTIVATION_SECONDS * 1000) } : {}),
  };
}

/** The newest generation (0: none yet): a running server compares it with the one it signs with. */
export function newestSigningGeneration(db: Queryable): Promise<number> {
  return newestOidcSigningGeneration(db);
}

export type OidcKeyCommand = { action: 'rotate' } | { action: 'list' };

export interface ListedOidcKey {
  generation: number;
  kid: string;
  created_at: string;
  /** When it starts signing (ACTIVATION_SECONDS after it was made; the oldest kept signs at once). */
  signs_from: string;
  /** Whether it is the one that signs now. */
  signing: boolean;
}

export interface OidcKeyResult {
  /** Every key kept (all published), newest first: after rotate, the new key first. */
  keys: ListedOidcKey[];
  /** rotate: the generations deleted (no longer published). */
  dropped?: number[];
}

export function parseOidcKeyCommand(value: unknown): OidcKeyCommand | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { action } = value as Record<string, unknown>;
  return action === 'rotate' || action === 'list' ? { action } : undefined;
}

function listed(records: OidcSigningKeyRecord[], now: Date): ListedOidcKey[] {
  const signing = records.findIndex((record, index) => activeAt(record, index, records, now));
  return records.map((record, index) => ({
    generation: record.generation,
    kid: String(record.jwk['kid'] ?? ''),
    created_at: record.createdAt.toISOString(),
    signs_from: (index === records.length - 1 ? record.createdAt : new Date(record.createdAt.getTime() + ACTIVATION_SECONDS * 1000)).toISOString(),
    signing: index === signing,
  }));
}

/** `portal oidc-keys rotate|list`, on the database the command line reached. */
export async function runOidcKeyCommand(db: Queryable, command: OidcKeyCommand, now: Date): Promise<OidcKeyResult> {
  if (command.action === 'list') return { keys: listed(await listOidcSigningKeys(db, PUBLISHED_GENERATIONS), now) };
  const before = await listOidcSigningKeys(db, PUBLISHED_GENERATIONS);
  const generation = await insertNextOidcSigningKey(db, newRs256Key(), now, PUBLISHED_GENERATIONS);
  if (generation === undefined) throw new ConflictError(OIDC_KEY_MESSAGES.raced);
  const keys = listed(await listOidcSigningKeys(db, PUBLISHED_GENERATIONS), now);
  const kept = new Set(keys.map((key) => key.generation));
  return { keys, dropped: before.map((record) => record.generation).filter((g) => !kept.has(g)) };
}
