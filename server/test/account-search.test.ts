/**
 * The account search's query plan (repositories/account-admin.ts, searchAccounts): however its
 * parts split the matches (each word's last-name range, the matches in other fields), a page is
 * exactly the page of the plain query: every account matching every word, in name order, each
 * once. Random accounts and terms, on each database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Database } from '../src/db/database.js';
import { escapeLikePattern, searchAccounts } from '../src/repositories/account-admin.js';
import { DATABASE_KINDS, createTestDatabase } from './helpers.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

/** Letters that make prefixes collide, with the characters a LIKE or a byte order could trip on. */
const LETTERS = ['a', 'b', 'A', 'é', 'É', 'ß', '%', '_', '\\', '.', '-', '\u{10FFFF}', 'z'];
const fragment = fc.array(fc.constantFrom(...LETTERS), { minLength: 0, maxLength: 4 }).map((chars) => chars.join(''));
const person = fc.record({
  first_name: fc.option(fragment, { nil: null }),
  last_name: fc.option(fragment, { nil: null }),
  user: fragment,
});

/** The plain query: every word matches the start of a field; name order; the page. */
async function reference(db: Database, words: readonly string[], startIndex: number, maxResults: number): Promise<string[]> {
  const conditions = words.map(
    (_, i) => `(${['username', 'first_name', 'last_name', 'email'].map((c) => `lower(a.${c}) like lower($${i + 1}) || '%'`).join(' or ')})`,
  );
  const { rows } = await db.query<{ username: string }>(
    `select a.username from accounts a ${conditions.length > 0 ? `where ${conditions.join(' and ')}` : ''}
      order by lower(a.last_name) collate "C", lower(a.first_name) collate "C", lower(a.username) collate "C", a.id
      limit ${maxResults} offset ${startIndex}`,
    words.map(escapeLikePattern),
  );
  return rows.map((r) => r.username);
}

for (const kind of DATABASE_KINDS) {
  describe(`the account search's plan on ${kind}`, () => {
    let db: Database;
    const fields: string[] = [];
    before(async () => {
      db = await createTestDatabase(kind);
      const people = fc.sample(person, { numRuns: 300, seed: 17 });
      const values: string[] = [];
      const params: unknown[] = [];
      people.forEach((p, i) => {
        const username = `${p.user}${i}`;
        params.push(username, `${p.user}${i}@x.test`, p.first_name, p.last_name);
        values.push(`($${params.length - 3}, $${params.length - 2}, $${params.length - 1}, $${params.length}, true, false)`);
        fields.push(username, ...[p.first_name, p.last_name].filter((f): f is string => f !== null));
      });
      await db.query(`insert into accounts (username, email, first_name, last_name, active, closed) values ${values.join(', ')}`, params);
    });
    after(async () => db.close());

    test('every page equals the plain query', async () => {
      // A word: the start of a stored field (so that pages fill), or a random fragment.
      const word = fc.oneof(
        fc.tuple(fc.constantFrom(...fields), fc.nat(3)).map(([f, n]) => [...f].slice(0, n + 1).join('')),
        fragment,
      ).filter((w) => w !== ''); // searchWords never gives an empty word
      await fc.assert(
        fc.asyncProperty(
          fc.array(word, { minLength: 1, maxLength: 3 }),
          fc.constantFrom(0, 1, 5, 30),
          fc.integer({ min: 1, max: 40 }),
          async (words, startIndex, maxResults) => {
            const expected = await reference(db, words, startIndex, maxResults + 1);
            const got = await searchAccounts(db, { words, startsWith: true, startIndex, maxResults, groupId: undefined });
            assert.deepEqual(
              got.rows.map((r) => r.username),
              expected.slice(0, maxResults),
            );
            assert.equal(got.hasMore, expected.length > maxResults);
          },
        ),
        { numRuns: RUNS, seed: Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31) },
      );
    });

    test('the accounts without a last name come last, after every last name', async () => {
      const all = await reference(db, ['a'], 0, 1000);
      const got = await searchAccounts(db, { words: ['a'], startsWith: true, startIndex: 0, maxResults: 1000, groupId: undefined });
      assert.deepEqual(
        got.rows.map((r) => r.username),
        all,
      );
      assert.ok(got.rows.some((r) => r.last_name === '') && got.rows.at(-1)?.last_name === '', 'some matches have no last name, and the last one has none');
    });
  });
}
