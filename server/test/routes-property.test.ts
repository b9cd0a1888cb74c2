/**
 * Random and hostile input to every registered route: none may answer 500 or leak. The test walks the app's route
 * table (every route Fastify registers, API or not, HEAD twins included), so a route added later
 * is covered with no edit here. For each route and each caller — anonymous (an anonymous session
 * with its anti-forgery token), a signed-in user, a site administrator (both with their token),
 * and a hostile caller (random cookies, anti-forgery tokens and certificate headers) — fast-check
 * sends generated path parameters (fitting the route's schema and not), query strings, bodies
 * (shaped by the route's own TypeBox schema with values the database knows, mutations of those,
 * random JSON, malformed JSON, other content types) and headers. Every answer: no 5xx, no stack
 * trace, SQL text or library internals, the API's one error shape; and after each route the
 * database's invariants hold (INVARIANTS below, written as SQL).
 *
 * PROPERTY_ROUTE_RUNS (default 20): requests per route and caller; PROPERTY_SEED: fast-check's seed;
 * PROPERTY_ROUTE_VERBOSE: print each route's answers by status.
 * The count of requests sent is printed. It runs on one database, PGlite (helpers.ts,
 * ROUTE_WALK_DATABASE).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import fc from 'fast-check';
import type { InjectOptions, RouteOptions } from 'fastify';
import type { App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { isApiPath, listApiRoutes } from '../src/plugins/route-access.js';
import type { PlatformRole } from '../src/repositories/accounts.js';
import { seedDemoData } from '../src/seed.js';
import { API, as, createAccount, fetchXsrf, postSignIn, sessionCookieOf, signIn, solvedChallenge, type Principal } from './auth-helpers.js';
import { createTestCa, dodSubject, proxyCertificateHeaders } from './certificate-helpers.js';
import { askForCode, mailedCode } from './visitor-helpers.js';
import { HASHED_HOST_FILE, HASHED_REMOTE_FILE, ROUTE_WALK_DATABASE, createFixture, createTestApp, createTestDatabase, type Fixture } from './helpers.js';

const RUNS = Math.max(1, Number(process.env.PROPERTY_ROUTE_RUNS ?? 20));
const VERBOSE = process.env.PROPERTY_ROUTE_VERBOSE !== undefined;
const SEED = process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED);

/**
 * Text that must never reach a caller: stack frames, internals, SQL and library messages (as
 * property.test.ts). `undefined is not` only as an engine's error reads: a message may name what the
 * caller sent ('The group undefined is not a group of DEVOPS.' for a group called "undefined").
 */
const LEAKS = /\bat [^\s]+ \(|\.ts:\d+|\.js:\d+|node_modules|stack|Internal server error|relation |syntax error|violates|TypeError|RangeError|ReferenceError|Cannot read|undefined is not (?:a function|an object|iterable)|ERR_[A-Z_]+|argon2|pglite|postgres/i;
/** Never the validator's own words: they mean nothing to a person on a screen. */
const VALIDATOR_WORDS = /must NOT|must have required|must be (integer|string|number|boolean|object|array)|body\/|params\/|querystring\//;
/** The fixture's file outside the served folders. */
const SECRET_CONTENT = 'outside the served folders';

/**
 * The database's invariants: each query lists the rows that break one (none may).
 */
const INVARIANTS: readonly { name: string; sql: string }[] = [
  {
    name: 'every account has a status, and a closed account is never active',
    sql: 'select id, username from accounts where active is null or closed is null or (closed and active)',
  },
  {
    name: 'every decided request (approved, denied) has its update row with that status',
    sql: `select r.id, r.kind, r.status from requests r
           where r.status in ('approved', 'denied')
             and not exists (select 1 from request_updates u where u.request_id = r.id and u.status = r.status)`,
  },
  {
    name: "every request has an update, and its latest update is in the request's status",
    sql: `select r.id, r.kind, r.status, latest.status as latest from requests r
            left join lateral (select u.status from request_updates u where u.request_id = r.id
                                order by u.created_at desc, u.id desc limit 1) latest on true
           where latest.status is distinct from r.status`,
  },
  {
    name: 'every decided request names who decided it',
    sql: `select r.id, r.kind, r.status from requests r
           where r.status in ('approved', 'denied') and (r.adjudicator is null or btrim(r.adjudicator) = '')`,
  },
  {
    name: 'every mail has one plain recipient address and a subject without line breaks',
    sql: `select id, to_address, subject from mail_outbox
           where to_address is null or to_address !~ '^[^@[:space:][:cntrl:],<>]+@[^@[:space:][:cntrl:],<>]+$'
              or subject ~ '[\\r\\n]'`,
  },
  {
    name: 'no session belongs to a locked or closed account',
    sql: 'select s.account_id from sessions s join accounts a on a.id = s.account_id where not a.active or a.closed',
  },
  {
    name: 'a closed account holds no live artifact-repository token',
    sql: 'select t.id from access_tokens t join accounts a on a.id = t.account_id where a.closed and t.revoked_at is null',
  },
  {
    name: "a mailing list's permission group is a group of its user group",
    sql: `select id from mailing_lists where not starts_with(permission_group, user_group_id || '-')`,
  },
  {
    name: 'an approved new account request has its account',
    sql: `select r.id, r.username from requests r
           where r.kind = 'new' and r.status = 'approved'
             and not exists (select 1 from accounts a where lower(a.username) = lower(r.username))`,
  },
];

async function assertInvariants(db: Database, after: string): Promise<void> {
  const broken: Record<string, unknown[]> = {};
  for (const invariant of INVARIANTS) {
    const { rows } = await db.query(invariant.sql);
    if (rows.length > 0) broken[invariant.name] = rows;
  }
  assert.deepEqual(broken, {}, `the database's invariants after ${after}`);
}

// ---------------------------------------------------------------------------------------------
// Values

/** What the database holds when a route's requests are generated: the values that fit. */
interface Known {
  usernames: string[];
  emails: string[];
  groupIds: string[];
  groupNames: string[];
  listIds: string[];
  tokenIds: string[];
  senders: string[];
  requestIds: number[];
  heldIds: number[];
  websiteTokens: string[];
  challenges: string[];
  /** A verification code just mailed to `codeEmail` (the visitors' flows take it as a Bearer). */
  code: string | undefined;
  codeEmail: string | undefined;
}

async function readKnown(db: Database, extra: Pick<Known, 'websiteTokens' | 'challenges' | 'code' | 'codeEmail'>): Promise<Known> {
  const column = async <T>(sql: string): Promise<T[]> => (await db.query<{ v: T }>(sql)).rows.map((r) => r.v);
  return {
    usernames: await column<string>('select username as v from accounts order by id'),
    emails: await column<string>('select email as v from accounts order by id'),
    groupIds: await column<string>('select id as v from user_groups order by id'),
    groupNames: [
      ...new Set([
        ...(await column<string>('select distinct group_name as v from group_memberships order by 1')),
        ...(await column<string>('select group_name as v from permission_groups order by 1')),
      ]),
    ],
    listIds: await column<string>('select id as v from mailing_lists order by id'),
    tokenIds: await column<string>('select id as v from access_tokens order by id'),
    senders: await column<string>('select distinct sender as v from held_messages order by 1'),
    requestIds: (await column<string | number>('select id as v from requests order by id')).map(Number),
    heldIds: (await column<string | number>('select id as v from held_messages order by id')).map(Number),
    ...extra,
  };
}

const noLeak = (s: string) => !LEAKS.test(s);

/** encodeURIComponent, with a lone surrogate sent as the bytes Node would write for it. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
  }
}

/** Strings people and attackers type: NULs, LIKE wildcards and escapes, injections, odd Unicode. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  "' or '1'='1",
  "'; drop table accounts; --",
  '%',
  '_',
  '\\',
  'a\\',
  '%_\\%',
  '*',
  '..',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  'x@example.test\r\nBcc: victim@example.test',
  'a\r\nb',
  '\t',
  '\ud800',
  '\udfff\ud800',
  '\u202e',
  '\ufeff',
  '💩',
  'İ',
  'ǅ',
  'ß',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  '99999999999999999999',
  'admin',
  'ADMIN',
  ' admin ',
  'Admin@Example.Test',
  'PORTAL',
  'portal',
  'PORTAL-admin',
  'PORTAL-',
  'portal-dev@example.test',
  '@',
  'a@b',
  'a@@b',
  '"a b"@example.test',
  'user@example.test, other@example.test',
  'User <user@example.test>',
];

const INTEGERS = [0, -1, 1, 2, 3, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, -(2 ** 53)];

/**
 * Numbers as text that are not finite, or beyond PostgreSQL's bigint: Ajv's coercion made
 * 'Infinity' and '1e400' numbers that skipped their schema's range and reached SQL (a 500).
 * Sent in paths and queries, and as strings in bodies (where a number is a JSON number).
 */
const NOT_FINITE_TEXTS = ['Infinity', '-Infinity', '+Infinity', '1e309', '-1e309', '1e400', 'NaN', '9223372036854775808', '-9223372036854775809', '99999999999999999999999'];

/** Known values that fit a field or parameter of this name on this route. */
function hintsFor(name: string, url: string, known: Known): string[] {
  const n = name.toLowerCase();
  if (n.includes('email') || n === 'sender' || n === 'to') {
    const coded = known.codeEmail === undefined ? [] : Array<string>(known.emails.length).fill(known.codeEmail);
    return [...coded, ...known.emails, ...known.senders, ...known.listIds];
  }
  if (n === 'username' || (n === 'id' && url.endsWith('/sessions'))) return [...known.usernames, ...known.emails];
  if (n === 'token') return known.websiteTokens;
  if (n === 'botchallengeresponse') return known.challenges;
  if (n === 'user_group' || n === 'group_id' || (n === 'id' && url.includes('/usergroups/'))) return known.groupIds;
  if (['group', 'groups', 'join', 'leave', 'permission_group'].includes(n)) return known.groupNames;
  if (n === 'id' && url.includes('/mailinglists/')) return known.listIds;
  if (n === 'id' && url.includes('/tokens/')) return known.tokenIds;
  if (n === 'service') return ['artifacts', 'jira', 'jsm', 'bitbucket', 'nope'];
  if (n === 'list_name') return ['dev', 'announce', 'portal-dev'];
  if (n === '*') return ['', 'index.html', HASHED_HOST_FILE, 'favicon.svg', 'mf-manifest.json', 'remoteEntry.js', HASHED_REMOTE_FILE, 'groups/x', 'manage-accounts/first.last'];
  return [];
}

function integerHints(name: string, url: string, known: Known): number[] {
  if (name === 'messageId') return known.heldIds;
  if (url.includes('/requests/')) return known.requestIds;
  return [...known.requestIds, ...known.heldIds];
}

type Schema = Record<string, unknown>;

const asSchema = (value: unknown): Schema | undefined => (typeof value === 'object' && value !== null ? (value as Schema) : undefined);

/** A string of the schema's length, often one the database knows (by the field's name). */
function stringFor(schema: Schema, name: string, url: string, known: Known): fc.Arbitrary<string> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 300;
  const fits = (s: string) => s.length >= min && s.length <= max;
  const hints = hintsFor(name, url, known).filter(fits);
  const choices: fc.WeightedArbitrary<string>[] = [
    { weight: 2, arbitrary: fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 40)) }).filter(noLeak) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: Math.max(min, Math.min(max, 20)) }).filter(noLeak) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).filter(fits) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(Math.min(max, 100_000)), 'é'.repeat(Math.min(max, 5000)), '\u0000'.repeat(Math.max(min, Math.min(max, 3)))).filter(fits) },
  ];
  if (typeof schema.pattern === 'string') {
    try {
      choices.push({ weight: 2, arbitrary: fc.stringMatching(new RegExp(schema.pattern)).filter(fits).filter(noLeak) });
    } catch {
      // a pattern fast-check cannot generate from: the others still apply
    }
  }
  if (hints.length > 0) choices.push({ weight: 5, arbitrary: fc.constantFrom(...hints) });
  return fc.oneof(...choices);
}

/** Values shaped by a JSON schema (TypeBox), with known values where a field's name says what it holds. */
function fromSchema(schemaValue: unknown, name: string, url: string, known: Known, depth = 0): fc.Arbitrary<unknown> {
  const schema = asSchema(schemaValue);
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return fc.oneof(...options.map((s) => fromSchema(s, name, url, known, depth + 1)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return fromSchema(schema.allOf[0], name, url, known, depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  const arbitraries = type.map((t): fc.Arbitrary<unknown> => {
    switch (t) {
      case 'string':
        return stringFor(schema, name, url, known);
      case 'integer': {
        const min = typeof schema.minimum === 'number' ? schema.minimum : -(2 ** 53 - 1);
        const max = typeof schema.maximum === 'number' ? schema.maximum : 2 ** 53 - 1;
        const fitting = [...integerHints(name, url, known), ...INTEGERS, min, max].filter((i) => i >= min && i <= max);
        return fc.oneof({ weight: 3, arbitrary: fc.integer({ min, max }) }, { weight: 3, arbitrary: fc.constantFrom(...fitting) }, { weight: 1, arbitrary: fc.constantFrom(...NOT_FINITE_TEXTS) });
      }
      case 'number':
        return fc.oneof(
          { weight: 3, arbitrary: fc.double({ min: typeof schema.minimum === 'number' ? schema.minimum : -1e12, max: typeof schema.maximum === 'number' ? schema.maximum : 1e12, noNaN: true }) },
          { weight: 1, arbitrary: fc.constantFrom(...NOT_FINITE_TEXTS) },
        );
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
        const maxItems = Math.max(minItems, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 6, 6));
        return fc.array(fromSchema(schema.items, name, url, known, depth + 1), { minLength: minItems, maxLength: maxItems });
      }
      case 'object': {
        const properties = asSchema(schema.properties) ?? {};
        const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [key, value] of Object.entries(properties)) model[key] = fromSchema(value, key, url, known, depth + 1);
        if (Object.keys(model).length === 0) return fc.dictionary(fc.string({ maxLength: 8 }).filter(noLeak), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
        return fc.record(model, { requiredKeys: required.filter((key) => key in model) });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  });
  return arbitraries.length === 1 ? (arbitraries[0] as fc.Arbitrary<unknown>) : fc.oneof(...arbitraries);
}

/** A schema-shaped object with one thing wrong: a field dropped, replaced by random JSON, or one added. */
function mutated(shaped: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(shaped, fc.nat(), fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('drop', 'replace', 'add', 'nest')).map(([value, index, junk, how]) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return junk;
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const keys = Object.keys(copy);
    const key = keys[index % Math.max(keys.length, 1)];
    if (how === 'add' || key === undefined) copy[`x${index % 7}`] = junk;
    else if (how === 'drop') delete copy[key];
    else if (how === 'nest') copy[key] = { [key]: copy[key] };
    else copy[key] = junk;
    return copy;
  });
}

// ---------------------------------------------------------------------------------------------
// Requests

interface Body {
  payload?: string | Buffer;
  contentType?: string;
}

const json = (value: unknown): Body => ({ payload: JSON.stringify(value) ?? 'null', contentType: 'application/json' });

const RAW_JSON = [
  '{',
  '{"a":',
  '',
  'null',
  '[]',
  '""',
  '0',
  'true',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"a":1,"a":2}',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
  `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
  `{"a":${'1'.repeat(400)}}`,
  // JSON numbers JSON.parse makes infinite, where the schemas have numbers.
  '{"term":"a","start_index":1e400}',
  '{"term":"a","start_index":-1e400,"max_results":1e309}',
  '{"description":"x","groups":[],"expiry":1e400}',
];

function bodies(routeSchema: Schema, url: string, known: Known): fc.Arbitrary<Body> {
  const choices: fc.WeightedArbitrary<Body>[] = [
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_JSON).map((payload) => ({ payload, contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream', 'application/xml', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/jsonx', 'x/y', ''),
        fc.oneof(fc.string({ maxLength: 200 }).filter(noLeak), fc.constantFrom('token=abc', 'a=1&a=2', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', '<a/>', '{"id":"admin"}')),
      ).map(([contentType, payload]) => ({ payload, ...(contentType ? { contentType } : {}) })),
    },
  ];
  if (routeSchema.body !== undefined) {
    const shaped = fromSchema(routeSchema.body, 'body', url, known);
    choices.push({ weight: 5, arbitrary: shaped.map(json) }, { weight: 2, arbitrary: mutated(shaped).map(json) });
  }
  return fc.oneof(...choices);
}

/** Raw path segments that do not fit: bad percent-encoding, traversal, huge, numbers of every kind. */
const RAW_SEGMENTS = ['%', '%E0%A4%A', '%zz', '..', '%2e%2e', '%2e%2e%2fsecret.txt', '..%2F..%2Fsecret.txt', '%2F', '%00', 'a%00b', '%C0%AE', 'a%2Fb', ' ', '%20', 'x'.repeat(2000), '-1', '0', '1.5', '1e3', '0x10', '99999999999999999999', '%F0%9F%92%A9', '~', '.', 'a;b', 'a?b=1', ...NOT_FINITE_TEXTS.map(encode)];

function pathFor(url: string, routeSchema: Schema, known: Known): fc.Arbitrary<string> {
  const params = asSchema(asSchema(routeSchema.params)?.properties) ?? {};
  const parts = url.split(/(:[A-Za-z0-9_]+|\*)/).filter((p) => p !== '');
  return fc.tuple(
    ...parts.map((part): fc.Arbitrary<string> => {
      if (part !== '*' && !part.startsWith(':')) return fc.constant(part);
      const name = part === '*' ? '*' : part.slice(1);
      const fitting = fromSchema(params[name] ?? { type: 'string' }, name, url, known).map((v) => (part === '*' ? String(v).split('/').map(encode).join('/') : encode(String(v))));
      const traversal = part === '*' ? ['../secret.txt', '..%2Fsecret.txt', '%2e%2e/secret.txt', 'a/../../secret.txt', '.env', 'index.html/', 'x.js'] : [];
      return fc.oneof({ weight: 4, arbitrary: fitting }, { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS, ...traversal) });
    }),
  ).map((segments) => segments.join(''));
}

const RAW_QUERIES = [
  '&&', '=', '==', 'a[b]=1', '__proto__[admin]=1', 'constructor[prototype][admin]=1', 'a=%', 'start_index=1&start_index=2', 'max_results=-1', 'max_results=1e3', 'start_index=0x10', 'email=%00', 'a=' + 'b'.repeat(5000),
  ...NOT_FINITE_TEXTS.flatMap((text) => [`start_index=${encode(text)}`, `max_results=${encode(text)}`]),
];

function queryFor(routeSchema: Schema, url: string, known: Known): fc.Arbitrary<string> {
  const shaped = routeSchema.querystring === undefined ? fc.constant({}) : fromSchema(routeSchema.querystring, 'query', url, known);
  const toQuery = (value: unknown) => {
    const search = new URLSearchParams();
    if (typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value)) search.append(key, typeof v === 'string' ? v : JSON.stringify(v));
    }
    return search.toString();
  };
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 4, arbitrary: shaped.map(toQuery) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }).filter(noLeak), fc.string({ maxLength: 30 }).filter(noLeak), { maxKeys: 4 }).map(toQuery) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) },
  );
}

const headerValue = fc.string({ maxLength: 120 }).map((s) => s.replace(/[^\x20-\x7e]/g, '').trim()).filter(noLeak);
const headerName = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,24}$/)
  .filter((name) => !['content-length', 'transfer-encoding', 'host', 'connection', 'expect', 'upgrade', 'content-type', 'cookie', 'x-xsrf-token'].includes(name));

interface Certificates {
  /** Proxy headers of a card bound to the demo admin, and of a card bound to nobody. */
  admin: Record<string, string>;
  stranger: Record<string, string>;
}

/** Headers any caller may add; `hostile` adds cookies and anti-forgery tokens of its own. */
function headersFor(certificates: Certificates, known: Known, hostile: boolean): fc.Arbitrary<Record<string, string>> {
  const interesting: Record<string, fc.Arbitrary<string>> = {
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'text/csv', 'image/png', ''),
    'accept-encoding': fc.constantFrom('br', 'gzip', 'deflate', 'identity;q=0', '*', 'br;q=abc'),
    authorization: fc.oneof(
      ...(known.code === undefined ? [] : [fc.constant(`Bearer ${known.code}`), fc.constant(`Bearer ${known.code}`)]),
      headerValue,
      headerValue.map((v) => `Bearer ${v}`),
      fc.constantFrom('Bearer 123456', 'Bearer ', 'Basic ', 'Basic Og==', 'Basic !!!', `Basic ${Buffer.from('svc:secret').toString('base64')}`, `Basic ${Buffer.from('a'.repeat(300)).toString('base64')}`,
        `Basic ${Buffer.from('svc\u0000:secret').toString('base64')}`,
        `Basic ${Buffer.from('svc%00:secret').toString('base64')}`,
        `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}`,
      ),
    ),
    range: fc.constantFrom('bytes=0-0', 'bytes=5-1', 'bytes=-1', 'bytes=0-99999999999', 'bytes=a-b', 'items=0-1', 'bytes=0-1,2-3'),
    'if-none-match': fc.oneof(headerValue, fc.constant('*')),
    'if-modified-since': fc.constantFrom('Thu, 01 Jan 1970 00:00:00 GMT', 'not a date', '9999-99-99'),
    'x-forwarded-for': fc.oneof(headerValue, fc.constantFrom('10.0.0.1', '::1', 'unknown, 1.2.3.4')),
    'x-forwarded-host': headerValue,
    'x-client-verify': fc.constantFrom('SUCCESS', 'FAILED', 'NONE', ''),
    'x-client-cert': fc.oneof(headerValue, fc.constantFrom('%E0%A4%A', encodeURIComponent('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'))),
    'accept-language': headerValue,
    origin: fc.constantFrom('null', 'https://evil.example', 'http://localhost'),
  };
  if (hostile) {
    const sessionCookie = fc.oneof(
      headerValue,
      headerValue.map((v) => `portal-session=${v}`),
      headerValue.map((v) => `__Host-portal-session=${v}`),
      fc.constantFrom('portal-session=', 'portal-session=a; portal-session=b', 'portal-session=%'),
    );
    interesting.cookie = sessionCookie;
    interesting['x-xsrf-token'] = fc.oneof(headerValue, fc.constant(''));
    // From the trusted proxy, https asks for the __Host- cookie: a signed-in caller's cookie would no longer count.
    interesting['x-forwarded-proto'] = fc.constantFrom('https', 'http', 'ftp', 'https, http');
  }
  const certificate = fc.oneof(
    { weight: 4, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constantFrom(certificates.admin, certificates.stranger) },
  );
  return fc
    .tuple(fc.record(interesting, { requiredKeys: [] }), fc.dictionary(headerName, headerValue, { maxKeys: 4 }), certificate)
    .map(([chosen, extra, cert]) => ({ ...extra, ...(chosen as Record<string, string>), ...cert }));
}

// ---------------------------------------------------------------------------------------------
// Callers

type CallerName = 'anonymous' | 'user' | 'admin' | 'hostile';
const CALLERS: readonly CallerName[] = ['anonymous', 'user', 'admin', 'hostile'];

interface Caller {
  name: CallerName;
  role?: PlatformRole;
  username?: string;
  token?: string;
  principal?: Principal;
}

interface RouteEntry {
  method: string;
  url: string;
  schema: Schema;
}

function assertSafe(route: RouteEntry, method: string, response: { statusCode: number; body: string; headers: Record<string, unknown> }, what: () => string): void {
  assert.ok(response.statusCode < 500, `${what()}: ${response.statusCode} ${response.body.slice(0, 500)}`);
  assert.doesNotMatch(response.body, LEAKS, what());
  assert.ok(!response.body.includes(SECRET_CONTENT), `${what()}: a file outside the served folders`);
  if (response.statusCode < 400 || method === 'HEAD') return;
  const contentType = String(response.headers['content-type'] ?? '');
  if (!isApiPath(route.url) && !contentType.startsWith('application/json')) return;
  const body = JSON.parse(response.body) as Record<string, unknown>;
  if (!isApiPath(route.url) && !('code' in body)) return; // RFC 7662's own error shape (POST /oauth2/introspect)
  assert.deepEqual(Object.keys(body).filter((k) => k !== 'fields').sort(), ['code', 'error'], what());
  assert.equal(typeof body.error, 'string', what());
  assert.equal(body.code, response.statusCode, what());
  if ('fields' in body) {
    assert.ok(typeof body.fields === 'object' && body.fields !== null, what());
    for (const message of Object.values(body.fields as Record<string, unknown>)) assert.equal(typeof message, 'string', what());
  }
  assert.doesNotMatch(response.body, VALIDATOR_WORDS, what());
}

/** Whether an answer says the caller's session is gone (signed out, locked, closed, replaced by a new sign-in). */
function endedSession(caller: CallerName, response: { statusCode: number; body: string }): boolean {
  if (caller === 'hostile' || response.statusCode < 400) return false;
  const xsrf = response.statusCode === 403 && response.body.includes('Invalid anti-forgery token');
  return caller === 'anonymous' ? xsrf : xsrf || response.statusCode === 401;
}

// On one database (ROUTE_WALK_DATABASE says why).
for (const kind of [ROUTE_WALK_DATABASE]) {
  describe(`random and hostile requests to every route on ${kind}`, () => {
    let fixture: Fixture;
    let db: Database;
    let app: App;
    const routes: RouteEntry[] = [];
    const counts = new Map<string, number>();
    const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
    let websiteTokens: string[] = [];
    let certificates: Certificates;
    const callers = new Map<CallerName, Caller>();
    let fresh = 0;
    let started = 0;

    /** A caller's session again after a request ended it (sign-out, lock, close, a new sign-in): the same account, else a new one of its role. */
    async function revive(caller: Caller): Promise<void> {
      if (caller.name === 'hostile') return;
      if (caller.name === 'anonymous') {
        caller.principal = await fetchXsrf(app);
        return;
      }
      const check = await app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: as(caller.principal as Principal) });
      if (check.statusCode === 200) return;
      const again = await postSignIn(app, caller.username as string, caller.token as string);
      const cookie = again.statusCode === 200 ? sessionCookieOf(again) : undefined;
      if (cookie) {
        caller.principal = await fetchXsrf(app, cookie);
        return;
      }
      const account = await createAccount(db, { username: `probe.${caller.name}${++fresh}`, roles: [caller.role as PlatformRole] });
      Object.assign(caller, { username: account.username, token: account.token, principal: await signIn(app, account.username, account.token) });
    }

    let codes = 0;
    /** A verification code for one known address after another (each address gets five an hour). */
    async function freshCode(): Promise<Pick<Known, 'code' | 'codeEmail'>> {
      const { rows } = await db.query<{ email: string }>('select email from accounts where active and not closed order by id');
      const email = rows[codes++ % Math.max(rows.length, 1)]?.email;
      if (email === undefined) return { code: undefined, codeEmail: undefined };
      const response = await askForCode(app, email);
      return { code: response.statusCode === 200 ? await mailedCode(db, email) : undefined, codeEmail: email };
    }

    before(async () => {
      started = Date.now();
      fixture = createFixture();
      db = await createTestDatabase(kind);
      const demo = await seedDemoData(db);
      websiteTokens = demo.map((account) => account.token);
      // 127.0.0.1 (app.inject's address) is a trusted proxy here, so the certificate headers are read.
      app = createTestApp({ db, fixture, portal: { supported_services: 'artifacts,jira,jsm,bitbucket' }, server: { trustedProxies: ['127.0.0.1'] } });
      app.addHook('onRoute', (route: RouteOptions) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) routes.push({ method, url: route.url, schema: (route.schema ?? {}) as Schema });
      });
      await app.ready();
      const ca = await createTestCa();
      certificates = {
        admin: proxyCertificateHeaders(await ca.issue(dodSubject('DOE.JOHN.QUINCY.1234567890'))),
        stranger: proxyCertificateHeaders(await ca.issue(dodSubject('ROE.RICHARD.0987654321'))),
      };
      const tokenOf = (username: string) => demo.find((a) => a.username === username)?.token as string;
      callers.set('anonymous', { name: 'anonymous', principal: await fetchXsrf(app) });
      callers.set('user', { name: 'user', role: 'user', username: 'user', token: tokenOf('user'), principal: await signIn(app, 'user', tokenOf('user')) });
      callers.set('admin', { name: 'admin', role: 'site-admin', username: 'admin', token: tokenOf('admin'), principal: await signIn(app, 'admin', tokenOf('admin')) });
      callers.set('hostile', { name: 'hostile' });
    });

    after(async () => {
      await app?.close();
      await db?.close();
      fixture?.remove();
    });

    test('the route table is walked: every API route is among the routes tested', () => {
      const tested = new Set(routes.map((r) => `${r.method} ${r.url}`));
      for (const route of listApiRoutes(app)) assert.ok(tested.has(`${route.method} ${route.url}`), `${route.method} ${route.url}`);
      assert.ok(routes.length > listApiRoutes(app).length, 'and the routes outside the API');
    });

    test('the inputs the random requests found breaking the server now get their 4xx', async () => {
      const admin = as((callers.get('admin') as Caller).principal as Principal);
      const cases: { what: string; request: InjectOptions; status: number; body?: unknown }[] = [
        { what: 'a malformed percent-encoding in the path', request: { method: 'GET', url: `${API}/accounts/%`, headers: admin }, status: 400, body: { error: 'Bad Request', code: 400 } },
        { what: 'a malformed percent-encoding outside the API', request: { method: 'GET', url: '/remotes/%E0%A4%A/x/y' }, status: 400, body: { error: 'Bad Request', code: 400 } },
        { what: "a path parameter over the router's limit", request: { method: 'PUT', url: `${API}/subscriptions/${'x'.repeat(2000)}`, headers: admin }, status: 414, body: { error: 'URI Too Long', code: 414 } },
        { what: 'a Range that cannot be satisfied', request: { method: 'GET', url: `/${HASHED_HOST_FILE}`, headers: { range: 'bytes=5-1' } }, status: 416, body: { error: 'Range Not Satisfiable', code: 416 } },
        // The first HTML is written for each request (it carries the configuration), so a Range on it is ignored, as HTTP allows.
        { what: 'a Range on the first HTML', request: { method: 'GET', url: '/', headers: { accept: 'text/html', range: 'bytes=5-1' } }, status: 200 },
        { what: 'a NUL in a path parameter', request: { method: 'GET', url: `${API}/subscriptions/a%00b`, headers: admin }, status: 404, body: { error: 'Not found', code: 404 } },
        {
          what: 'a NUL in a query',
          request: { method: 'GET', url: `${API}/requests/profilechange/email-exists?email=a%00b`, headers: admin },
          status: 400,
          body: { error: 'Email: This value is not valid.', code: 400, fields: { email: 'This value is not valid.' } },
        },
        {
          what: 'a NUL in a body',
          request: {
            method: 'POST',
            url: `${API}/requests/membership/new`,
            headers: admin,
            payload: { user_group: 'a\u0000b', username: 'admin', join: [], leave: [], reason: 'x', updateIntent: 'request' },
          },
          status: 400,
          body: { error: 'User group: This value is not valid.', code: 400, fields: { user_group: 'This value is not valid.' } },
        },
        {
          what: "a NUL in an introspecting service's name",
          request: {
            method: 'POST',
            url: '/oauth2/introspect',
            headers: { authorization: `Basic ${Buffer.from('svc%00:secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
            payload: 'token=x',
          },
          status: 401,
          body: { error: 'invalid_client', error_description: 'Unknown service or wrong secret.' },
        },
      ];
      for (const { what, request, status, body } of cases) {
        const response = await app.inject(request);
        assert.equal(response.statusCode, status, `${what}: ${response.body}`);
        if (body !== undefined) assert.deepEqual(response.json(), body, what);
      }
    });

    test('a number that is not finite (or beyond bigint) is refused like any other bad number, after the caller\'s access: 404 in the path, 400 in the query or body', async () => {
      const caller = (name: CallerName) => as((callers.get(name) as Caller).principal as Principal);
      const userPermissions = (await app.inject({ method: 'GET', url: `${API}/sessions/current`, headers: caller('user') })).json<{ permissions: string[] }>().permissions;
      const numeric = (schema: unknown) => ['integer', 'number'].includes(String(asSchema(schema)?.type));
      let tried = 0;
      for (const route of listApiRoutes(app)) {
        const schema = routes.find((r) => r.method === route.method && r.url === route.url)?.schema ?? {};
        const params = asSchema(asSchema(schema.params)?.properties) ?? {};
        const query = asSchema(asSchema(schema.querystring)?.properties) ?? {};
        const places = [
          ...Object.keys(params).filter((name) => numeric(params[name])).map((name) => ({ part: 'path' as const, name })),
          ...Object.keys(query).filter((name) => numeric(query[name])).map((name) => ({ part: 'query' as const, name })),
        ];
        for (const { part, name } of places) {
          for (const text of NOT_FINITE_TEXTS) {
            const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, param: string) => (part === 'path' && param === name ? encode(text) : '1'));
            const url = part === 'query' ? `${path}?${name}=${encode(text)}` : path;
            const send = (who: CallerName) =>
              app.inject({ method: route.method as 'GET', url, headers: caller(who), ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }) });
            const where = `${route.method} ${url}`;
            if (route.access.kind !== 'public') assert.deepEqual((await send('anonymous')).json(), { error: 'Not signed in', code: 401 }, `anonymous ${where}`);
            if (route.access.kind === 'permission' && !userPermissions.includes(route.access.permission)) {
              assert.deepEqual((await send('user')).json(), { error: 'Forbidden', code: 403 }, `user ${where}`);
            }
            const answer = await send('admin');
            if (part === 'path') assert.deepEqual(answer.json(), { error: 'Not found', code: 404 }, `admin ${where}`);
            else {
              assert.equal(answer.statusCode, 400, `admin ${where}: ${answer.body}`);
              assert.ok(answer.json<{ fields?: Record<string, string> }>().fields?.[name], `admin ${where}: ${answer.body}`);
            }
            tried += 1;
          }
        }
      }
      assert.ok(tried >= 30 * NOT_FINITE_TEXTS.length, `only ${tried} tried`);
      // The calls the fuzzer reported, by name.
      const admin = caller('admin');
      const status = async (method: 'GET' | 'POST', url: string) => (await app.inject({ method, url: `${API}${url}`, headers: admin, ...(method === 'POST' ? { payload: {} } : {}) })).statusCode;
      assert.deepEqual(
        [
          await status('GET', '/requests/new?start_index=Infinity'),
          await status('GET', '/requests/unlock?max_results=1e400'),
          await status('GET', '/requests/usergroup?start_index=-Infinity'),
          await status('GET', '/requests/unlock/1e309'),
          await status('GET', '/requests/new/Infinity'),
          await status('POST', '/requests/new/1e309/approved'),
        ],
        [400, 400, 400, 404, 404, 404],
      );
      // In a body a number is a JSON number: text is refused, as is one JSON.parse makes infinite.
      for (const payload of [{ term: 'a', start_index: 'Infinity' }, { term: 'a', start_index: '5' }, '{"term":"a","start_index":1e400}']) {
        const answer = await app.inject({ method: 'POST', url: `${API}/accounts/search`, headers: { ...admin, 'content-type': 'application/json' }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
        assert.deepEqual(answer.json(), { error: 'Start index: This value is not valid.', code: 400, fields: { start_index: 'This value is not valid.' } }, JSON.stringify(payload));
      }
    });

    test('every route, every caller: no 5xx, no leak, the invariants hold', async (t: TestContext) => {
      for (const route of routes) {
        const statuses = new Map<string, number>();
        await t.test(`${route.method} ${route.url}`, async (rt: TestContext) => {
          // A route whose body names an address (the visitors' flows) gets a code just mailed to one.
          const code = asSchema(asSchema(route.schema.body)?.properties)?.email === undefined ? { code: undefined, codeEmail: undefined } : await freshCode();
          for (const callerName of CALLERS) {
            const caller = callers.get(callerName) as Caller;
            const challenges = await Promise.all([0, 1].map(() => solvedChallenge(app)));
            const known = await readKnown(db, { websiteTokens, challenges, ...code });
            const request = fc.record({
              path: pathFor(route.url, route.schema, known),
              query: queryFor(route.schema, route.url, known),
              body: fc.option(bodies(route.schema, route.url, known), { freq: 4 }),
              headers: headersFor(certificates, known, callerName === 'hostile'),
            });
            await fc.assert(
              fc.asyncProperty(request, async ({ path, query, body, headers }) => {
                const url = query === '' ? path : `${path}?${query}`;
                const response = await app.inject({
                  method: route.method as 'GET',
                  url,
                  headers: {
                    ...headers,
                    ...(caller.principal ? as(caller.principal) : {}),
                    ...(body?.contentType ? { 'content-type': body.contentType } : {}),
                  },
                  ...(body?.payload === undefined ? {} : { payload: body.payload }),
                });
                count(callerName);
                count(isApiPath(route.url) ? 'api' : 'other');
                count('total');
                count(`${Math.floor(response.statusCode / 100)}xx`);
                statuses.set(`${callerName} ${response.statusCode}`, (statuses.get(`${callerName} ${response.statusCode}`) ?? 0) + 1);
                assertSafe(route, route.method, response, () =>
                  `${callerName} ${route.method} ${url.slice(0, 300)} ${JSON.stringify(headers).slice(0, 300)} ${String(body?.contentType)} ${String(body?.payload ?? '').slice(0, 300)}`,
                );
                if (endedSession(callerName, response)) await revive(caller);
              }),
              { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
            );
            // A sign-in or sign-out by the request itself leaves the caller's next route a session.
            await revive(caller);
          }
          await assertInvariants(db, `${route.method} ${route.url}`);
          if (VERBOSE) rt.diagnostic([...statuses].sort().map(([key, n]) => `${key}: ${n}`).join(', '));
        });
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const summary = `${kind}: ${counts.get('total') ?? 0} generated requests to ${routes.length} routes (${counts.get('api') ?? 0} API, ${counts.get('other') ?? 0} other; ` +
        `${CALLERS.map((c) => `${c} ${counts.get(c) ?? 0}`).join(', ')}; answered ${['2xx', '3xx', '4xx'].map((c) => `${c} ${counts.get(c) ?? 0}`).join(', ')}) in ${seconds} s`;
      t.diagnostic(summary);
      console.log(summary);
      assert.ok((counts.get('total') ?? 0) >= routes.length * CALLERS.length * RUNS, summary);
    });
  });
}
