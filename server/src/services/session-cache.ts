/**
 * The embedded database's session lookups kept in memory (each request's lookup took half a core). PGlite runs inside the
 * portal's process, on the core that also serves HTTP, and the session lookup every request makes
 * was about half of that core's time. One process owns the embedded data folder, so every write
 * passes through its Database, whose write generation moves with each (db/pglite.ts): a record
 * read while the generation stayed the same is kept, and any other write (an account locked, a
 * role taken away, a session ended anywhere) drops every record at once. The one write each
 * session makes on its own, its last-seen mark (at most once a second), is applied here instead,
 * so a busy portal's many sessions do not drop each other's records. Misses are not kept (a
 * made-up cookie costs a lookup, not memory), and at most MAX_SESSIONS records are held.
 *
 * Not used on PostgreSQL: other servers write to it too, so each lookup asks the database.
 */
import type { SessionRecord } from '../repositories/sessions.js';

/** Records held at most; the oldest kept goes first. */
export const MAX_SESSIONS = 10_000;

interface Entry {
  /** The write generation the record was read in (it is current while the two are equal). */
  generation: number;
  record: SessionRecord | undefined;
  /**
   * The latest last-seen mark this process has written for the session. Marks only move forward,
   * so it holds whatever the generation: a record read before a mark's write ended is brought up
   * to it.
   */
  lastSeenMs: number;
}

/** Taken before reading a session from the database; `keep` stores the result only if it is still current. */
export interface ReadTicket {
  readonly generation: number;
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();

  /** `generation` is the database's write generation (Database.writeGeneration). */
  constructor(private readonly generation: () => number) {}

  /** The session's record as the database holds it now, if it is kept. */
  get(idHash: string): SessionRecord | undefined {
    const entry = this.entries.get(idHash);
    if (entry?.record === undefined || entry.generation !== this.generation()) return undefined;
    return withLastSeen(entry.record, entry.lastSeenMs);
  }

  /** To be taken just before the database is read. */
  ticket(): ReadTicket {
    return { generation: this.generation() };
  }

  /** Keeps a record read after `ticket` was taken, unless something was written since. */
  keep(idHash: string, ticket: ReadTicket, record: SessionRecord): void {
    if (ticket.generation !== this.generation()) return;
    const lastSeenMs = Math.max(this.entries.get(idHash)?.lastSeenMs ?? 0, record.lastSeenAt.getTime());
    this.set(idHash, { generation: ticket.generation, record, lastSeenMs });
  }

  /** The session's last-seen mark is now at least `mark` in the database (its own write has ended). */
  marked(idHash: string, mark: Date): void {
    const entry = this.entries.get(idHash);
    if (entry) entry.lastSeenMs = Math.max(entry.lastSeenMs, mark.getTime());
    else this.set(idHash, { generation: -1, record: undefined, lastSeenMs: mark.getTime() });
  }

  /** Forgets a session (its write failed, or it was deleted). */
  forget(idHash: string): void {
    this.entries.delete(idHash);
  }

  private set(idHash: string, entry: Entry): void {
    this.entries.delete(idHash);
    if (this.entries.size >= MAX_SESSIONS) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(idHash, entry);
  }
}

function withLastSeen(record: SessionRecord, lastSeenMs: number): SessionRecord {
  return lastSeenMs <= record.lastSeenAt.getTime() ? record : { ...record, lastSeenAt: new Date(lastSeenMs) };
}
