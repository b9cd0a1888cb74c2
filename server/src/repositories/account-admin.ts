/**
 * SQL of the account administration's reads (server/docs/adjudication.md, "Accounts"): the
 * account search and the history rows the CSV export reads. Its changes of state are written by
 * accounts.ts (the account row) and requests.ts (the requests a change decides).
 */
import type { AccountSearchRow } from '@portal/api';
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
  /** The prefix search's threshold instead of COLLECT_SHARE's; tests set it to take both ways on a few rows. */
  collectAtMost?: number;
}

/** A found account, as the API's search page lists it. */
export type { AccountSearchRow } from '@portal/api';

/** A word as a LIKE pattern matching it literally: the escape character (\), % and _ escaped. */
export function escapeLikePattern(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const SEARCHED_COLUMNS = ['a.username', 'a.first_name', 'a.last_name', 'a.email'] as const;
/** The searched columns with a prefix index of their own (migrations 0006, 0015): all but the last name. */
const PREFIX_INDEXED_COLUMNS = SEARCHED_COLUMNS.filter((c) => c !== 'a.last_name');

/**
 * The search's order: last name, first name, username (lower case, byte order: the same on every
 * database whatever its collation), then id. It is the key of accounts_name_order_idx
 * (migration 0006), so PostgreSQL can read a page in order without sorting every match.
 */
const NAME_ORDER = 'lower(a.last_name) collate "C", lower(a.first_name) collate "C", lower(a.username) collate "C", a.id';
const LAST_NAME = 'lower(a.last_name) collate "C"';
const COLUMNS = 'a.id, a.username, a.first_name, a.last_name, a.email, a.active, a.closed';

/**
 * A prefix search collects its candidates and sorts them when one of its words starts at most
 * this share of the accounts' entries in the prefix indexes (username, first name and email
 * together: 1 in COLLECT_SHARE, and never fewer than COLLECT_AT_LEAST); above it, the planner
 * chooses, as for any query. Collecting costs a visit to the table per candidate, bounded
 * whatever the statistics say (a few milliseconds for 10,000 at a million accounts); reading in
 * name order costs the rows passed before the page fills: little when matches are dense, the
 * whole index when they are rare. Counting costs up to the threshold's entries of an index.
 */
export const COLLECT_SHARE = 100;
export const COLLECT_AT_LEAST = 1_000;

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
 * - the matches whose last name starts with no word, every word matching another field:
 *   collected by the prefix indexes and sorted when a word starts few of their entries (counted
 *   first, see COLLECT_SHARE), else read in name order or collected, as the planner estimates.
 *   Left to the planner also when a word is rare, the choice followed ANALYZE's sample: one
 *   sample in forty estimated a thousand matches for `james.smith-4` (eleven real) and walked
 *   all 100,000 accounts (71 ms, not 0.5), and at a million accounts `maria.garcia` walked past
 *   150,000 rows in one sample of four.
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
    const { entries, atMost } = await matchEntries(db, search.words, search.collectAtMost);
    const rarest = entries.indexOf(Math.min(...entries));
    const limit = add(search.startIndex + search.maxResults + 1);
    const inOrder = (conditions: readonly string[], from = 'accounts a') =>
      `(select ${COLUMNS} from ${from} ${where([...conditions, ...filters])} order by ${NAME_ORDER} limit ${limit})`;
    const lastNameStarts = (pattern: string) => `${LAST_NAME} like ${pattern}`;
    // Each word's last-name range, in order; a match in two ranges is kept by the first.
    const byLastName = patterns.map((pattern, i) =>
      // (the word itself needs no other test: an OR of fields would tempt the planner away from the range)
      inOrder([lastNameStarts(pattern), ...patterns.slice(0, i).map((earlier) => `not coalesce(${lastNameStarts(earlier)}, false)`), ...everyWord.filter((_, j) => j !== i)]),
    );
    // The matches whose last name starts with no word: every word in another field.
    const elsewhereConditions = patterns.flatMap((pattern) => [`not coalesce(${lastNameStarts(pattern)}, false)`, anyColumn(pattern, PREFIX_INDEXED_COLUMNS)]);
    // Few: the rarest word's entries, fetched apart (a materialized CTE is planned on its own, so
    // the planner cannot trade it for the walk), then filtered and sorted. Many: as planned.
    const collect = entries[rarest]! <= atMost;
    const elsewhere = inOrder(elsewhereConditions, collect ? 'candidates a' : 'accounts a');
    const candidates = collect ? `with candidates as materialized (select ${COLUMNS} from accounts a where ${anyColumn(patterns[rarest]!, PREFIX_INDEXED_COLUMNS)}) ` : '';
    sql = `${candidates}select * from (${[...byLastName, elsewhere].join(' union all ')}) as a
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

/**
 * The threshold (`atMost`: the accounts' number as the table's statistics hold it, divided by
 * COLLECT_SHARE, at least COLLECT_AT_LEAST; or the caller's), and for each word how many entries
 * of the username, first name and email prefix indexes start with it, counted up to `atMost + 1`
 * (any more: "many"). Each count is a range of its index read in the index's order and cut at
 * the threshold, whatever the planner estimates; from the index alone once the visibility map is
 * set (migration 0015). The range is the word's lower case up to its successor (PREFIX_END), so
 * the statement needs no pattern: it is prepared, planned once per connection and words' number.
 * A count only chooses the way: the page is the same either way.
 */
async function matchEntries(db: Queryable, words: readonly string[], fixed: number | undefined): Promise<{ entries: number[]; atMost: number }> {
  const atMost = `(select coalesce($1::int, greatest(${COLLECT_AT_LEAST}, reltuples / ${COLLECT_SHARE})::int) from pg_class where oid = 'accounts'::regclass)`;
  const counts = words.map((_, i) => {
    const word = `lower($${i + 2})`;
    const probes = PREFIX_INDEXED_COLUMNS.map(
      (column) =>
        `(select 1 from accounts a where lower(${column}) ~>=~ ${word} and lower(${column}) ~<~ ${PREFIX_END(word)} order by lower(${column}) using ~<~ limit ${atMost} + 1)`,
    );
    return `(select count(*) from (${probes.join(' union all ')} limit ${atMost} + 1) as e)::int as n${i}`;
  });
  const { rows } = await db.query<Record<string, number>>(`select ${atMost} as at_most, ${counts.join(', ')}`, [fixed ?? null, ...words], {
    prepare: `account_search_entries_${words.length}`,
  });
  const row = rows[0]!;
  return { entries: words.map((_, i) => Number(row[`n${i}`])), atMost: Number(row.at_most) };
}

/**
 * The first string after every string that starts with `text` (a non-empty SQL text expression)
 * in byte order, text_pattern_ops' order (UTF-8's bytes sort as its code points): the text with
 * its last character's code point one higher, skipping the surrogates, which UTF-8 cannot hold.
 * A text ending in U+10FFFF, the last code point, gives itself: an empty range, counted 0.
 */
const PREFIX_END = (text: string): string => {
  const last = `ascii(right(${text}, 1))`;
  return `(left(${text}, -1) || chr(case ${last} when 55295 then 57344 when 1114111 then 1114111 else ${last} + 1 end))`;
};

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
