/**
 * What token upkeep runs on a schedule (every PORTAL_TOKEN_MAINTENANCE_MS, in every server
 * process; the claims below make each piece of work happen once across processes):
 *  - the mail 7 days before a token expires, queued in the outbox once per token (only tokens
 *    issued for longer than 7 days: a shorter one's owner knows when it ends);
 *  - revocations the issuer has not confirmed (an account locked or closed while Artifactory
 *    was unreachable), retried until it answers.
 */
import type { Database } from '../../db/database.js';
import { claimExpiryNotices, confirmRevocation, listUnconfirmedRevocations } from '../../repositories/tokens.js';
import { enqueueMail } from '../mail.js';
import type { TokenIssuer } from './issuer.js';

export const EXPIRY_NOTICE_DAYS = 7;
const BATCH = 100;
const DAY_MS = 86_400_000;

function expiryText(expiresAt: Date): string {
  return `${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** One round; returns how many expiry notices it queued. */
export async function runTokenMaintenance(db: Database, issuer: TokenIssuer, now: Date): Promise<number> {
  let queued = 0;
  for (;;) {
    const sent = await db.transaction(async (tx) => {
      const due = await claimExpiryNotices(tx, now, new Date(now.getTime() + EXPIRY_NOTICE_DAYS * DAY_MS), BATCH);
      for (const token of due) {
        await enqueueMail(tx, {
          to: token.email,
          subject: `Your token '${token.description.slice(0, 100)}' expires in ${EXPIRY_NOTICE_DAYS} days`,
          text: [
            `Hello ${token.username},`,
            '',
            `Your artifact repository token '${token.description}' expires on ${expiryText(token.expiresAt)}.`,
            'After that, builds and tools that use it can no longer reach the artifact repository.',
            'Create a new token on the Artifactory Access Tokens page of the portal and replace this one where it is used.',
            '',
          ].join('\n'),
        }, { now: () => now });
      }
      return due.length;
    });
    queued += sent;
    if (sent < BATCH) break;
  }
  for (const token of await listUnconfirmedRevocations(db, BATCH)) {
    try {
      await issuer.revoke(token.id);
      await confirmRevocation(db, token.id, now);
    } catch {
      // Tried again next round.
    }
  }
  return queued;
}

export interface TokenMaintenance {
  start(): void;
  stop(): Promise<void>;
}

export function createTokenMaintenance(options: {
  db: Database;
  issuer: TokenIssuer;
  intervalMs: number;
  now?: () => Date;
  onError: (error: unknown) => void;
}): TokenMaintenance {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = runTokenMaintenance(options.db, options.issuer, (options.now ?? (() => new Date()))()).catch(options.onError);
  };
  return {
    start() {
      tick();
      timer = setInterval(tick, options.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
