/**
 * Helpers for the visitors' flows (verification codes, account requests): asking for a code as
 * the page does, reading the code from the mail outbox (as the visitor reads it in the mail),
 * and calling the content calls with it.
 */
import assert from 'node:assert/strict';
import type { App } from '../src/app.js';
import type { Queryable } from '../src/db/database.js';
import { allMails, findMailsTo } from '../src/repositories/mail.js';
import { API, solvedChallenge } from './auth-helpers.js';

export const OK = { ok: true, code: 200 };
export const INVALID_CODE = { error: 'The verification code is invalid or has expired.', code: 401 };
export const INVALID_CHALLENGE = { error: 'Invalid Security Challenge Response', code: 400 };

/** POST /mail/verifywithbotchallenge with a freshly solved challenge (or the one given). */
export async function askForCode(app: App, email: string, botChallengeResponse?: string) {
  return app.inject({
    method: 'POST',
    url: `${API}/mail/verifywithbotchallenge`,
    payload: { email, botChallengeResponse: botChallengeResponse ?? (await solvedChallenge(app)) },
  });
}

const CODE_IN_MAIL = /Your verification code is ([0-9]{6})\./;

/** The code of the latest verification mail to an address; undefined when none was mailed. */
export async function mailedCode(db: Queryable, email: string): Promise<string | undefined> {
  const mail = (await findMailsTo(db, email)).find((m) => CODE_IN_MAIL.test(m.text));
  return mail ? CODE_IN_MAIL.exec(mail.text)?.[1] : undefined;
}

/** Asks for a code for a known address and returns the one mailed. */
export async function codeFor(app: App, db: Queryable, email: string): Promise<string> {
  const mailsBefore = (await allMails(db)).length;
  const response = await askForCode(app, email);
  assert.equal(response.statusCode, 200, response.body);
  const code = await mailedCode(db, email);
  assert.ok(code, `a code was mailed to ${email}`);
  assert.equal((await allMails(db)).length, mailsBefore + 1, 'one mail');
  return code;
}

/** A POST with the code as `Authorization: Bearer <code>` (no cookie, no anti-forgery token). */
export function withCode(app: App, path: string, code: string | undefined, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: `${API}${path}`,
    headers: { ...(code === undefined ? {} : { authorization: `Bearer ${code}` }), ...headers },
    payload,
  });
}

/** A code that is not `code` (six digits). */
export function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

export async function count(db: Queryable, table: string, where = 'true', params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`, params);
  return Number(rows[0]?.n ?? 0);
}
