/**
 * How accounts hold services, kept between forward auth's calls. Forward auth is on every request
 * of every service, and reading an account's groups in the user groups that use a service was most
 * of its statement's cost (docs/performance.md, "Forward auth at saturation"). What is kept is used
 * only under the stamps it was read under: each call reads the account's current stamps in the
 * statement that reads its session (repositories/service-sign-in/forward-auth.ts), and the stamps
 * move in the same transaction as any change of what the account holds (migration 0023). So an
 * unsubscription, a membership or nesting taken away, or a user group's services changed, by this
 * server or another on the same database, is seen by the very next call, as before anything was
 * kept.
 *
 * Stamps only move forward while the database lives: a record read under stamps that moved before
 * it was kept is never used again. A restore, which could take them back, is made with the portal's
 * servers stopped (docs/operations.md, "Backups"), so nothing kept outlives it. At most MAX_GRANTS
 * records are held, the least recently used going first.
 */
import type { Service } from '@portal/api';
import { LRUCache } from 'lru-cache';
import type { ServiceGrants } from '../../repositories/service-sign-in/forward-auth.js';

/** Records held at most (an account and a service each). */
export const MAX_GRANTS = 10_000;

interface Entry {
  readonly stamp: string;
  readonly grants: ServiceGrants;
}

export class GrantCache {
  private readonly entries = new LRUCache<string, Entry>({ max: MAX_GRANTS });

  /** How the account holds the service, if it was kept under these stamps. */
  get(accountId: number, service: Service, stamp: string): ServiceGrants | undefined {
    const entry = this.entries.get(keyOf(accountId, service));
    return entry?.stamp === stamp ? entry.grants : undefined;
  }

  /** Keeps grants read after the stamps `stamp` were read (never before: they could be older than the stamps). */
  keep(accountId: number, service: Service, stamp: string, grants: ServiceGrants): void {
    // Every later call shares these: frozen, so that no caller can change what the others read.
    this.entries.set(keyOf(accountId, service), { stamp, grants: Object.freeze({ ...grants, groups: Object.freeze([...grants.groups]) }) as ServiceGrants });
  }
}

const keyOf = (accountId: number, service: Service): string => `${accountId} ${service}`;
