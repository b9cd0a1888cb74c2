/**
 * The bot challenge: ALTCHA v2 proof of work (PBKDF2/SHA-256), signed with the server's HMAC
 * secret, valid for 10 minutes, and accepted once. The browser widget (altcha 3) sends
 * base64(JSON {"challenge":{"parameters":…,"signature":…},"solution":{counter, derivedKey, …}}).
 */
import { createHash } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { markChallengeUsed } from '../repositories/challenges.js';
import type { SecurityContext } from './security-context.js';

export const CHALLENGE_ALGORITHM = 'PBKDF2/SHA-256';
export const CHALLENGE_LIFETIME_MS = 10 * 60_000;

async function challengeSecret(context: SecurityContext): Promise<string> {
  return context.settings.challengeSecret ?? context.secret('challenge');
}

/** A signed challenge as the widget receives it (every parameter is covered by the signature). */
export interface SignedChallenge {
  parameters: Challenge['parameters'] & { expiresAt: number };
  signature: string;
}

export async function createBotChallenge(context: SecurityContext): Promise<SignedChallenge> {
  const expiresAt = Math.floor((context.clock.now().getTime() + CHALLENGE_LIFETIME_MS) / 1000);
  const challenge = await createChallenge({
    algorithm: CHALLENGE_ALGORITHM,
    cost: context.settings.challengeCost,
    deriveKey,
    expiresAt,
    hmacSignatureSecret: await challengeSecret(context),
  });
  if (challenge.signature === undefined) throw new Error('the challenge was not signed');
  return { parameters: { ...challenge.parameters, expiresAt }, signature: challenge.signature };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The widget's payload, or undefined when it is not one. */
function parsePayload(text: string): { challenge: Challenge & { signature: string }; solution: Solution } | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || !isObject(parsed.challenge) || !isObject(parsed.solution)) return undefined;
  const { parameters, signature } = parsed.challenge;
  const { counter, derivedKey } = parsed.solution;
  if (!isObject(parameters) || typeof signature !== 'string' || signature === '') return undefined;
  if (typeof counter !== 'number' || typeof derivedKey !== 'string') return undefined;
  if (parameters.algorithm !== CHALLENGE_ALGORITHM || typeof parameters.expiresAt !== 'number') return undefined;
  for (const field of ['nonce', 'salt', 'keyPrefix'] as const) {
    if (typeof parameters[field] !== 'string' || !/^(?:[0-9a-f]{2})+$/.test(parameters[field])) return undefined;
  }
  if (typeof parameters.cost !== 'number' || typeof parameters.keyLength !== 'number') return undefined;
  return {
    challenge: { parameters: parameters as unknown as Challenge['parameters'], signature },
    solution: { counter, derivedKey },
  };
}

/**
 * Whether a challenge response is a valid, unexpired solution of a challenge this server signed
 * and that was never accepted before. An accepted one is recorded, so a second use is refused
 * (on any server process sharing the database).
 */
export async function acceptBotChallengeResponse(context: SecurityContext, response: string): Promise<boolean> {
  const payload = parsePayload(response);
  if (!payload) return false;
  const expiresAt = payload.challenge.parameters.expiresAt ?? 0;
  const now = context.clock.now();
  if (!(expiresAt * 1000 > now.getTime())) return false;
  const hmacSignatureSecret = await challengeSecret(context);
  let verified: boolean;
  try {
    const result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, hmacSignatureSecret });
    verified = result.verified;
  } catch {
    // A signed challenge never makes the library throw; anything else is a forgery.
    verified = false;
  }
  if (!verified) return false;
  const signatureHash = createHash('sha256').update(payload.challenge.signature).digest('hex');
  return markChallengeUsed(context.db, signatureHash, new Date(expiresAt * 1000), now);
}
