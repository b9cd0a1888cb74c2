/**
 * Artifact-repository tokens (spec sections 4, 5 and 7; server/docs/tokens.md): the groups a
 * caller may create tokens for, creating, listing and revoking their own, an administrator's view
 * and revocation, and revoking every token of an account that is locked or closed. The form's
 * rules run here again: a token carries only scopes its owner holds.
 */
import {
  expirySecondsProblem,
  isRevocableLifetime,
  levelCovers,
  levelOfGroup,
  levelsFor,
  scopeParts,
  TOKEN_MESSAGES,
  tokenNameRule,
  type ArtifactToken,
  type CreatedToken,
  type CreateTokenBody,
  type TokenGroup,
  type TokenLevel,
} from '@portal/api';
import type { Queryable } from '../../db/database.js';
import { ConflictError, InvalidInputError, NotFoundError, UnavailableError, type FieldErrors } from '../../errors.js';
import { findAccountByUsername } from '../../repositories/account-view.js';
import { addAccountUpdate } from '../../repositories/accounts.js';
import { findHeldGroups } from '../../repositories/groups.js';
import {
  confirmRevocation,
  findArtifactGroups,
  findLiveTokenForUpdate,
  insertToken,
  listLiveTokens,
  markRevoked,
  revokeAccountTokens,
  type TokenRecord,
} from '../../repositories/tokens.js';
import { SELF_SERVICE_MESSAGES } from '../../self-service-messages.js';
import type { Actor, SelfServiceContext } from '../account-access.js';
import { ArtifactRepositoryError } from './artifactory.js';
import { NoArtifactRepositoryAccountError, type TokenIssuer } from './issuer.js';

/**
 * A call to the issuer, its failures in words for the caller: no account there → 400 with the
 * spec's message; not answering → 503 with the adapter's safe message (no secret in it).
 */
async function atIssuer<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NoArtifactRepositoryAccountError) throw new InvalidInputError(TOKEN_MESSAGES.noArtifactoryAccount);
    if (error instanceof ArtifactRepositoryError) throw new UnavailableError(error.message);
    throw error;
  }
}

export interface TokenContext extends SelfServiceContext {
  readonly issuer: TokenIssuer;
}

/** The history's action for a token an administrator (or a lock or closure) revoked. */
export const TOKEN_ACTIONS = { revoked: 'Token revoked' } as const;

const seconds = (date: Date | null): number => (date === null ? 0 : Math.floor(date.getTime() / 1000));

export function tokenView(token: TokenRecord): ArtifactToken {
  return {
    token_id: token.id,
    description: token.description,
    issued_at: seconds(token.issuedAt),
    expiry: seconds(token.expiresAt),
    revocable: token.revocable,
    scope: [...token.scopes],
  };
}

/**
 * Per user group using the artifact repository, the highest artifacts level the account holds
 * there (directly or through another group); only the groups named, when `ids` is given.
 */
export async function heldArtifactLevels(db: Queryable, accountId: number, ids?: readonly string[]): Promise<Map<string, { name: string; level: TokenLevel }>> {
  const [groups, held] = await Promise.all([findArtifactGroups(db, ids), findHeldGroups(db, accountId)]);
  const levels = new Map<string, { name: string; level: TokenLevel }>();
  for (const group of groups) {
    for (const h of held) {
      if (h.userGroupId !== group.id) continue;
      const level = levelOfGroup(group.id, h.groupName);
      const current = levels.get(group.id)?.level;
      if (level && (current === undefined || !levelCovers(current, level))) levels.set(group.id, { name: group.name, level });
    }
  }
  return levels;
}

/** GET /tokens/groups: the groups the caller may create tokens for, with the levels offered (spec section 5). */
export async function listTokenGroups(context: TokenContext, actor: Actor): Promise<{ rows: TokenGroup[] }> {
  const levels = await heldArtifactLevels(context.db, actor.id);
  return { rows: [...levels].map(([id, { name, level }]) => ({ id, name, levels: levelsFor(level) })) };
}

async function liveTokens(context: TokenContext, accountId: number, username: string): Promise<TokenRecord[]> {
  const tokens = await listLiveTokens(context.db, accountId);
  const live = await atIssuer(() => context.issuer.liveTokenIds(username));
  // Revoked at the issuer itself (for example in Artifactory's own screens): gone here too.
  return live === undefined ? tokens : tokens.filter((token) => live.has(token.id));
}

/** GET /tokens: the caller's tokens not revoked, newest first. */
export async function listTokens(context: TokenContext, actor: Actor): Promise<{ tokens: ArtifactToken[] }> {
  return { tokens: (await liveTokens(context, actor.id, actor.username)).map(tokenView) };
}

/** The body's problems, field by field, as the form words them; and the scopes it asks for. */
async function checkedRequest(context: TokenContext, actor: Actor, body: CreateTokenBody): Promise<string[]> {
  const fields: Record<string, string> = {};
  const nameProblem = tokenNameRule(body.description.trim() === '' ? '' : body.description);
  if (nameProblem) fields.description = nameProblem;
  const expiryProblem = expirySecondsProblem(body.expiry, context.config.artifacts_token_max_expiry);
  if (expiryProblem) fields.expiry = expiryProblem;
  if (body.groups.length === 0) fields.groups = TOKEN_MESSAGES.groupsRequired;
  else {
    const held = await heldArtifactLevels(context.db, actor.id);
    const seen = new Set<string>();
    for (const scope of body.groups) {
      const parts = scopeParts(scope);
      const holding = parts && held.get(parts.groupId);
      if (!parts || !holding || !levelCovers(holding.level, parts.level)) {
        fields.groups = TOKEN_MESSAGES.scopeNotAllowed(scope);
        break;
      }
      if (seen.has(parts.groupId)) {
        fields.groups = TOKEN_MESSAGES.groupTwice(parts.groupId);
        break;
      }
      seen.add(parts.groupId);
    }
  }
  if (Object.keys(fields).length > 0) throw InvalidInputError.ofFields(fields as FieldErrors);
  return [...body.groups];
}

/** POST /tokens: a new token of the caller's; its secret is in the answer only. */
export async function createToken(context: TokenContext, actor: Actor, body: CreateTokenBody): Promise<CreatedToken> {
  const scopes = await checkedRequest(context, actor, body);
  const issuedAt = new Date(Math.floor(context.clock.now().getTime() / 1000) * 1000);
  const expiresAt = new Date(issuedAt.getTime() + body.expiry * 1000);
  const revocable = isRevocableLifetime(body.expiry, context.config.artifacts_token_revocable_expiry);
  const issued = await atIssuer(() =>
    context.issuer.issue({ username: actor.username, description: body.description, scopes, expiresInSeconds: body.expiry, issuedAt }),
  );
  const record: TokenRecord = {
    id: issued.tokenId,
    accountId: actor.id,
    description: body.description,
    scopes,
    issuer: context.issuer.name,
    issuedAt,
    expiresAt,
    revocable,
    revokedAt: null,
  };
  try {
    await insertToken(context.db, { ...record, secretHash: issued.secretHash });
  } catch (error) {
    // Not recorded: not left working at the issuer either.
    await context.issuer.revoke(issued.tokenId).catch(() => undefined);
    throw error;
  }
  return { ...tokenView(record), reference_token: issued.referenceToken };
}

/** Revokes one live token of an account, at the issuer first; 404 when it is not there. */
async function revokeOne(
  context: TokenContext,
  accountId: number,
  tokenId: string,
  by: string,
  check: (tx: Queryable, token: TokenRecord, at: Date) => Promise<void>,
): Promise<void> {
  await context.db.transaction(async (tx) => {
    const token = await findLiveTokenForUpdate(tx, accountId, tokenId);
    if (!token) throw new NotFoundError(TOKEN_MESSAGES.notFound);
    const at = context.clock.now();
    await check(tx, token, at);
    await atIssuer(() => context.issuer.revoke(token.id));
    await markRevoked(tx, [token.id], by, at);
    await confirmRevocation(tx, token.id, at);
  });
}

/** DELETE /tokens/{id}: the caller's own token; another's or an unknown one is 404; 409 when it is not revocable. */
export async function revokeToken(context: TokenContext, actor: Actor, tokenId: string): Promise<{ ok: true }> {
  await revokeOne(context, actor.id, tokenId, actor.username, async (_tx, token) => {
    if (!token.revocable) throw new ConflictError(TOKEN_MESSAGES.notRevocable(context.config.artifacts_token_revocable_expiry));
  });
  return { ok: true };
}

async function accountNamed(context: TokenContext, username: string) {
  const account = await findAccountByUsername(context.db, username);
  if (!account) throw new NotFoundError(SELF_SERVICE_MESSAGES.accountNotFound);
  return account;
}

/** GET /accounts/{username}/tokens (VIEW_ACCOUNT). */
export async function listAccountTokens(context: TokenContext, username: string): Promise<{ tokens: ArtifactToken[] }> {
  const account = await accountNamed(context, username);
  return { tokens: (await listLiveTokens(context.db, account.id)).map(tokenView) };
}

/** DELETE /accounts/{username}/tokens/{id} (LOCK_ACCOUNT): whatever its lifetime; the history records it. */
export async function revokeAccountToken(context: TokenContext, actor: Actor, username: string, tokenId: string): Promise<{ ok: true }> {
  const account = await accountNamed(context, username);
  await revokeOne(context, account.id, tokenId, actor.username, async (tx, token, at) => {
    await addAccountUpdate(tx, {
      accountId: account.id,
      action: TOKEN_ACTIONS.revoked,
      comment: `Token '${token.description}' revoked by an account administrator.`,
      username: actor.username,
      active: account.active && !account.closed,
      at,
    });
  });
  return { ok: true };
}

/**
 * In the transaction that locks or closes an account: every live token is revoked and the
 * history says how many. The artifact repository is told after the commit (tokens/maintenance.ts
 * retries until it confirms); the embedded issuer's tokens stop at once.
 */
export async function revokeTokensOfAccount(
  tx: Queryable,
  account: { id: number; active: boolean },
  why: 'locked' | 'closed',
  by: string,
  at: Date,
): Promise<number> {
  const revoked = await revokeAccountTokens(tx, account.id, `account ${why}`, at);
  if (revoked.length > 0) {
    const count = revoked.length === 1 ? '1 token' : `${revoked.length} tokens`;
    await addAccountUpdate(tx, {
      accountId: account.id,
      action: TOKEN_ACTIONS.revoked,
      comment: `${count} revoked: the account was ${why}.`,
      username: by,
      active: false,
      at,
    });
  }
  return revoked.length;
}
