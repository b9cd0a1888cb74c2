/**
 * SQL of the account administration's reads (server/docs/adjudication.md, "Accounts"): the
 * account search and the history rows the CSV export reads. Its changes of state are written by
 * accounts.ts (the account row) and requests.ts (the requests a change decides).
 */
import type { Queryable } from '../db/database.js';

// ---------------------------------------------------------------------------------------------
// Search

/** A search: the words (lower case or not, at most a few), where they must match, a page, a group. */
export interface AccountSearch {
  words: readonly string[];
  /** true: each word matches the start of a field; false: any part of it. */
  startsWith: boolean;
  startIndex: number;
  maxResults: number;
  /** Only members of this user group (any letter case); undefined: every account. */
  groupId: string | undefined;
}

export interface AccountSearchRow {
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  active: boolean;
  closed: boolean;
}

/** A word as a LIKE pattern matching it literally: the escape character (\), % and _ escaped. */
export function escapeLikePattern(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const SEARCHED_COLUMNS = ['a.username', 'a.first_name', 'a.last_name', 'a.email'] as const;

/**
 * The search's order: last name, first name, username (lower case, byte order: the same on every
 * database whatever its collation), then id. It is the key of accounts_name_order_idx
 * (migration 0006), so PostgreSQL can read a page in order without sorting every match.
 */
const NAME_ORDER = 'lower(a.last_name) collate "C", lower(a.first_name) collate "C", lower(a.username) collate "C", a.id';
const LAST_NAME = 'lower(a.last_name) collate "C"';
const COLUMNS = 'a.id, a.username, a.first_name, a.last_name, a.email, a.active, a.closed';

/**
 * A page of accounts in name order whose username, first name, last name or email matches
 * every word, plus whether more follow. A word is one parameter, escaped for LIKE and
 * lower-cased by the database; the prefix form (`lower(col) like lower($n) || '%'`) lets
 * PostgreSQL use the prefix indexes of migration 0006, since the pattern is a constant once the
 * parameter is bound.
 *
 * A prefix search is several queries in one, each cut at the end of the page, then merged:
 * - for each word, the matches whose last name starts with it: a range of the name-order index,
 *   already in order. Asked as one query, PostgreSQL would walk the name-order index from 'a' to
 *   find the Smiths for 'smith', or, for 'maria ga', past 160,000 Andersons, Browns and Davises
 *   to the first Maria Garcia;
 * - the matches whose last name starts with no word, every word matching another field: read in
 *   name order when they are many, collected by the prefix indexes and sorted when they are few
 *   (the planner's choice).
 */
export async function searchAccounts(db: Queryable, search: AccountSearch): Promise<{ rows: AccountSearchRow[]; hasMore: boolean }> {
  const params: unknown[] = [];
  const add = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const patternOf = (word: string): string => {
    const p = add(escapeLikePattern(word));
    return search.startsWith ? `lower(${p}) || '%'` : `'%' || lower(${p}) || '%'`;
  };
  const anyColumn = (pattern: string, columns: readonly string[] = SEARCHED_COLUMNS) =>
    `(${columns.map((column) => `lower(${column}) like ${pattern}`).join(' or ')})`;

  const filters: string[] = [];
  if (search.groupId !== undefined) {
    filters.push(`exists(select 1 from group_memberships m where m.account_id = a.id and lower(m.user_group_id) = lower(${add(search.groupId)}))`);
  }
  const patterns = search.words.map(patternOf);
  const where = (conditions: readonly string[]) => (conditions.length > 0 ? `where ${conditions.join(' and ')}` : '');
  const everyWord = patterns.map((pattern) => anyColumn(pattern));

  let sql: string;
  if (patterns.length > 0 && search.startsWith) {
    const limit = add(search.startIndex + search.maxResults + 1);
    const inOrder = (conditions: readonly string[]) => `(select ${COLUMNS} from accounts a ${where([...conditions, ...filters])} order by ${NAME_ORDER} limit ${limit})`;
    const lastNameStarts = (pattern: string) => `${LAST_NAME} like ${pattern}`;
    const otherColumns = SEARCHED_COLUMNS.filter((c) => c !== 'a.last_name');
    // Each word's last-name range, in order; a match in two ranges is kept by the first.
    const byLastName = patterns.map((pattern, i) =>
      // (the word itself needs no other test: an OR of fields would tempt the planner away from the range)
      inOrder([lastNameStarts(pattern), ...patterns.slice(0, i).map((earlier) => `not coalesce(${lastNameStarts(earlier)}, false)`), ...everyWord.filter((_, j) => j !== i)]),
    );
    // The matches whose last name starts with no word: every word in another field.
    const elsewhere = inOrder(patterns.flatMap((pattern) => [`not coalesce(${lastNameStarts(pattern)}, false)`, anyColumn(pattern, otherColumns)]));
    sql = `select * from (${[...byLastName, elsewhere].join(' union all ')}) as a
      order by ${NAME_ORDER} limit ${add(search.maxResults + 1)} offset ${add(search.startIndex)}`;
  } else {
    sql = `select ${COLUMNS} from accounts a ${where([...everyWord, ...filters])} order by ${NAME_ORDER} limit ${add(search.maxResults + 1)} offset ${add(search.startIndex)}`;
  }
  const { rows } = await db.query<{
    username: string;
    first_name: string | null;
    last_name: string | null;
    email: string;
    active: boolean;
    closed: boolean;
  }>(sql, params);
  const page = rows.slice(0, search.maxResults).map((r) => ({
    username: r.username,
    first_name: r.first_name ?? '',
    last_name: r.last_name ?? '',
    email: r.email,
    active: r.active,
    closed: r.closed,
  }));
  return { rows: page, hasMore: rows.length > search.maxResults };
}

// ---------------------------------------------------------------------------------------------
// History

export interface HistoryEntry {
  /** Who made the change. */
  username: string;
  created: Date;
  /** What the change did ('' for entries whose comment says it). */
  action: string;
  /** Why. */
  comment: string;
}

/** The account's update history, oldest first. */
export async function findAccountHistory(db: Queryable, accountId: number): Promise<HistoryEntry[]> {
  const { rows } = await db.query<{ username: string; created_at: Date | string; action: string; comment: string }>(
    'select username, created_at, action, comment from account_updates where account_id = $1 order by created_at, id',
    [accountId],
  );
  return rows.map((r) => ({
    username: r.username,
    created: r.created_at instanceof Date ? r.created_at : new Date(r.created_at),
    action: r.action,
    comment: r.comment,
  }));
}
