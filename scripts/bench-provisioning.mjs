// npm run bench's provisioning at scale, on PostgreSQL and a real OpenLDAP slapd:
//  1. seeds a fresh database by SQL with 100,000 approved accounts (some locked, closed or with a
//     lapsed renewal), 10,000 user groups (some with services, some nested in another) and
//     1,000,000 memberships, and subscriptions of accounts of their own;
//  2. writes the entries the portal would write (its own truth and entry code: allPeople,
//     allGroups, personEntry, groupEntry of server/src) as an LDIF file and times `ldapadd` of it
//     into a fresh slapd (the directory's own limit); then times the portal's full reconcile
//     (the engine's, as `portal provision reconcile` runs it) into another fresh slapd, and a
//     second reconcile of that now up-to-date directory; both directories are read back and must
//     hold the same entries, attributes and member values;
//  3. starts the portal on that database with the directory configured and, under the session
//     check's sustained load, approves membership requests through the API one by one and times
//     each from the API's answer until the member is in the directory (polled every 25 ms).
// The server's TypeScript modules are loaded in this process with tsx (its tsImport); the slapd is
// the provisioning tests' (server/test/ldap-helpers.ts). BENCH_PROVISIONING_SCALE=0.01 runs it at
// a hundredth of the scale (for working on it); the report says so.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { root } from './lib.mjs';

const SCALE = Number(process.env.BENCH_PROVISIONING_SCALE ?? '1');
// mdb without an fsync at each write (olcDbNoSync), for ldapadd and the portal alike: the load is
// then bound by what slapd and the portal do, not by this machine's disk flushes (about 10 ms
// each here, which made the whole phase an hour). BENCH_PROVISIONING_SYNC=1: with them.
const NO_SYNC = process.env.BENCH_PROVISIONING_SYNC !== '1';
if (!(SCALE > 0 && SCALE <= 1)) throw new Error(`BENCH_PROVISIONING_SCALE must be a number in (0, 1], not ${process.env.BENCH_PROVISIONING_SCALE}.`);
export const PROV_ACCOUNTS = Math.round(100_000 * SCALE);
export const PROV_GROUPS = Math.round(10_000 * SCALE);
export const PROV_MEMBERSHIPS = Math.round(1_000_000 * SCALE);
const PER_GROUP = Math.floor(PROV_MEMBERSHIPS / PROV_GROUPS); // memberships of each group (100)
const DECISION_GROUP = 'PROVBENCH';
const DECISIONS = 30;
const DECISION_POLL_MS = 25;
const DECISION_TIMEOUT_MS = 30_000;
const LOAD_WARMUP_MS = 2_000;
const START_RECONCILE_TIMEOUT_MS = 30 * 60_000;
export const PROV_TARGET_RATIO = 2; // the portal's reconcile of an empty directory ≤ 2 × ldapadd
export const PROV_TARGET_UP_TO_DATE_S = 600;
export const PROV_TARGET_DECISION_P95_MS = 2_000;
const SERVICES_SQL = "array['artifacts', 'bitbucket', 'confluence', 'jenkins', 'jira', 'jsm', 'sonarqube', 'repository']";

const requireServer = createRequire(join(root, 'server', 'package.json'));
const serverUrl = pathToFileURL(join(root, 'server', 'package.json')).href;

/** The server's modules this phase uses, loaded from their TypeScript sources. */
async function serverModules() {
  // tsx's ESM entry (require.resolve would find its CommonJS one).
  const { tsImport } = await import(pathToFileURL(join(dirname(requireServer.resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href);
  const load = (path) => tsImport(pathToFileURL(join(root, 'server', path)).href, import.meta.url);
  const [slapd, truth, ldap, names, engine, postgres, ldapts] = await Promise.all([
    load('test/ldap-helpers.ts'),
    load('src/repositories/provisioning/truth.ts'),
    load('src/services/provisioning/ldap.ts'),
    load('src/services/provisioning/ldap-names.ts'),
    load('src/services/provisioning/engine.ts'),
    load('src/db/postgres.ts'),
    tsImport('ldapts', serverUrl),
  ]);
  return { slapd, truth, ldap, names, engine, postgres, ldapts };
}

/**
 * The rows, in one transaction, with the triggers off (session_replication_role: the decisions'
 * triggers record changes for no target yet, and the reconcile fills the directory anyway).
 * Account g: locked one in 50, closed one in 97, renewal lapsed one in 211; a subscription of its
 * own one in 5. Group k (PGk): a service one in 10, its -user group nested in PG(k+1)'s one in
 * 50; its PER_GROUP members are accounts spread by a stride prime to their number: the first its
 * admin, one in 10 team, one in 7 in its additional group -release, one in 13 notified, the rest
 * users. Then DECISION_GROUP, administered by the demo admin, with DECISIONS pending requests to join.
 */
const seedSql = () => `
begin;
set local session_replication_role = replica;
insert into accounts (username, email, first_name, last_name, active, closed, last_certified, created_at)
select 'prov.' || lower(first) || '.' || lower(last) || '-' || g, 'prov.' || lower(first) || '.' || lower(last) || '-' || g || '@bench.example',
       first, last, g % 50 <> 0 and g % 97 <> 0, g % 97 = 0,
       case when g % 211 = 0 then now() - interval '400 days' else now() - make_interval(days => g % 300) end,
       now() - interval '800 days'
  from (select g, (array['John', 'Maria', 'Li', 'Ahmed', 'Olga', 'James', 'Sofia', 'Wei', 'Fatima', 'Carlos'])[1 + g % 10] as first,
               (array['Smith', 'Garcia', 'Li', 'Nguyen', 'Johnson', 'Brown', 'Martinez', 'Kim', 'Lopez', 'Ivanova'])[1 + (g / 10) % 10] || substr(md5(g::text), 1, 3) as last
          from generate_series(1, ${PROV_ACCOUNTS}) g) as people;
insert into user_groups (id, name, description, open_access, visibility, member_constraint, services)
select 'PG' || k, 'Provisioning group ' || k, 'A group of the provisioning bench.', false, 'site-approved', 'None',
       case when k % 10 = 0 then array[(${SERVICES_SQL})[1 + (k / 10) % 8]] else '{}'::text[] end
  from generate_series(1, ${PROV_GROUPS}) k;
insert into permission_groups (user_group_id, group_name) select 'PG' || k, 'PG' || k || '-release' from generate_series(1, ${PROV_GROUPS}) k;
insert into group_nestings (user_group_id, group_name, member_group)
select 'PG' || (k + 1), 'PG' || (k + 1) || '-user', 'PG' || k || '-user' from generate_series(1, ${PROV_GROUPS - 1}) k where k % 50 = 0;
with first as (select min(id) as id from accounts where username like 'prov.%')
insert into group_memberships (user_group_id, account_id, group_name)
select 'PG' || k, first.id + (k * 7919 + j * 104729) % ${PROV_ACCOUNTS},
       'PG' || k || '-' || case when j = 0 then 'admin' when j % 10 = 0 then 'team' when j % 7 = 3 then 'release' when j % 13 = 5 then 'notification-high' else 'user' end
  from first, generate_series(1, ${PROV_GROUPS}) k, generate_series(0, ${PER_GROUP - 1}) j;
with first as (select min(id) as id from accounts where username like 'prov.%')
insert into account_subscriptions (account_id, service)
select first.id + g - 1, (${SERVICES_SQL})[1 + g % 8] from first, generate_series(1, ${PROV_ACCOUNTS}) g where g % 5 = 0;
insert into user_groups (id, name, description, open_access, visibility, member_constraint, services)
values ('${DECISION_GROUP}', 'Provisioning decisions', 'The bench approves requests to join it.', false, 'site-approved', 'None', array['jira']);
insert into group_memberships (user_group_id, account_id, group_name) select '${DECISION_GROUP}', id, '${DECISION_GROUP}-admin' from accounts where username = 'admin';
insert into requests (kind, status, account_id, username, email, reason, details, created_at, updated_at)
select 'membership', 'pending', a.id, a.username, a.email, 'Provisioning bench',
       jsonb_build_object('user_group', '${DECISION_GROUP}', 'join', jsonb_build_array('${DECISION_GROUP}-user'), 'leave', '[]'::jsonb, 'updateIntent', 'request'), now(), now()
  from (select id, username, email from accounts
         where username like 'prov.%' and active and not closed and last_certified > now() - interval '300 days'
         order by id desc limit ${DECISIONS}) a;
insert into request_updates (request_id, status, username, comment, created_at)
select id, 'pending', username, reason, created_at from requests where kind = 'membership' and details ->> 'user_group' = '${DECISION_GROUP}';
commit;`;

const ANALYZE_SQL = 'vacuum analyze accounts, user_groups, group_memberships, group_nestings, account_subscriptions, permission_groups, requests, request_updates';

// ---------------------------------------------------------------------------------------------
// LDIF (RFC 2849): a value that is not a SAFE-STRING goes base64.

/** RFC 2849's SAFE-STRING: ASCII without NUL, LF or CR, not starting with a space, ':' or '<' (nor ending with a space, which it advises to encode). */
function safe(value) {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0 || code === 10 || code === 13 || code > 127) return false;
    if (i === 0 && (code === 32 || code === 58 || code === 60)) return false;
    if (i === value.length - 1 && code === 32) return false;
  }
  return true;
}
const ldifLine = (attribute, value) => (safe(value) ? `${attribute}: ${value}\n` : `${attribute}:: ${Buffer.from(value, 'utf8').toString('base64')}\n`);

function ldifEntry(dn, attributes) {
  let text = ldifLine('dn', dn);
  for (const [attribute, value] of Object.entries(attributes)) for (const v of Array.isArray(value) ? value : [value]) text += ldifLine(attribute, v);
  return `${text}\n`;
}

/** Writes the directory the portal's truth asks for, as LDIF; what it holds. */
async function writeLdif(m, db, base, file) {
  const layout = m.names.directoryLayout(base);
  const people = await m.truth.allPeople(db);
  const groups = await m.truth.allGroups(db);
  const fd = openSync(file, 'w');
  let buffer = '';
  const write = (text) => {
    buffer += text;
    if (buffer.length > 1 << 20) {
      writeSync(fd, buffer);
      buffer = '';
    }
  };
  let memberValues = 0;
  try {
    write(ldifEntry(layout.people, m.ldap.ouEntry('people')));
    write(ldifEntry(layout.groups, m.ldap.ouEntry('groups')));
    for (const person of people) write(ldifEntry(layout.personDn(person.username), m.ldap.personEntry(person)));
    for (const [group, members] of groups) {
      memberValues += members.length;
      write(ldifEntry(layout.groupDn(group), m.ldap.groupEntry(group, members.map((u) => layout.personDn(u)))));
    }
    writeSync(fd, buffer);
  } finally {
    closeSync(fd);
  }
  return { people: people.length, groups: groups.size, memberValues, bytes: statSync(file).size };
}

/** Runs a command to its end; rejects with its stderr when it fails. */
function runCommand(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      errors = (errors + chunk).slice(-4_000);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${command} failed (${signal ?? `exit code ${code}`}): ${errors.trim()}`))));
  });
}

/**
 * What a directory holds under `base`: entries, people, groups, member values, and a digest of
 * every entry's DN and the attributes the portal writes (sorted), to compare two directories.
 */
async function readDirectory(m, url, base) {
  const client = new m.ldapts.Client({ url, timeout: 600_000, strictDN: false });
  await client.bind(m.slapd.LDAP_ADMIN_DN, m.slapd.LDAP_ADMIN_PASSWORD);
  const entries = [];
  const counts = { entries: 0, people: 0, groups: 0, memberValues: 0 };
  try {
    const attributes = ['objectClass', 'ou', 'uid', 'cn', 'sn', 'givenName', 'mail', 'displayName', 'description', 'member'];
    for await (const page of client.searchPaginated(base, { scope: 'sub', filter: '(objectClass=*)', attributes, paged: { pageSize: 1000 } })) {
      for (const entry of page.searchEntries) {
        counts.entries++;
        const lines = [];
        for (const attribute of attributes) {
          const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
          if (key === undefined) continue;
          const values = (Array.isArray(entry[key]) ? entry[key] : [entry[key]]).map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)));
          if (attribute === 'member') counts.memberValues += values.length;
          if (attribute === 'objectClass') {
            if (values.includes('inetOrgPerson')) counts.people++;
            if (values.includes('groupOfNames')) counts.groups++;
          }
          const normal = attribute === 'member' || attribute === 'objectClass' ? values.map((v) => v.toLowerCase()) : values;
          lines.push(`${attribute.toLowerCase()}=${normal.sort().join('\u0001')}`);
        }
        entries.push(`${entry.dn.toLowerCase()}\u0002${lines.join('\u0002')}`);
      }
    }
  } finally {
    await client.unbind().catch(() => undefined);
  }
  const hash = createHash('sha256');
  for (const line of entries.sort()) hash.update(line).update('\n');
  return { ...counts, digest: hash.digest('hex').slice(0, 16) };
}

/** A fresh slapd (the tests'), stopped and removed at cleanup, killed at an unplanned exit. */
async function freshSlapd(m, ctx) {
  const slapd = await m.slapd.startSlapd({ maxSizeBytes: 16 * 1024 ** 3, noSync: NO_SYNC });
  ctx.onExit(() => slapd.killNow());
  ctx.onCleanup(() => slapd.remove());
  return slapd;
}

/** The engine with the directory as its only target, as `portal provision reconcile` makes it. */
async function timedReconcile(m, db, url, base) {
  const target = m.ldap.createLdapTarget({ url, bindDn: m.slapd.LDAP_ADMIN_DN, bindPassword: m.slapd.LDAP_ADMIN_PASSWORD, baseDn: base, prune: false });
  const quiet = { info() {}, warn() {}, error() {} };
  const engine = m.engine.createProvisioningEngine({ db, targets: [target], reconcileIntervalMs: 0, log: quiet });
  await engine.register();
  try {
    const started = performance.now();
    const [done] = await engine.reconcile({ dryRun: false });
    return { ms: performance.now() - started, summary: done.summary, differences: done.report.differences };
  } finally {
    await engine.stop();
  }
}

/** Resolves once the server's reconcile at its start (after `since`) is done; how long it waited. */
async function startReconcileDone(ctx, url, since) {
  const started = performance.now();
  const client = await ctx.pgClient(url);
  try {
    for (;;) {
      const { rows } = await client.query("select last_reconcile_at from provisioning_targets where name = 'ldap'");
      const at = rows[0]?.last_reconcile_at;
      if (at && new Date(at).getTime() > since) return performance.now() - started;
      if (ctx.isInterrupted()) throw new Error('interrupted');
      if (performance.now() - started > START_RECONCILE_TIMEOUT_MS) throw new Error(`the portal's reconcile at start did not end within ${START_RECONCILE_TIMEOUT_MS / 60_000} min`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await client.end();
  }
}

const sortedOf = (values) => Float64Array.from(values).sort();
const pct = (values, q) => {
  const sorted = sortedOf(values);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};

/**
 * The phase, on `portal` (the portal started on a fresh PostgreSQL database by the bench; it is
 * stopped here and started again with the directory). `ctx`: what bench.mjs lends.
 */
export async function benchProvisioning(ctx, portal) {
  const m = await serverModules();
  const base = m.slapd.LDAP_SUFFIX;
  const result = { portal, scale: SCALE, noSync: NO_SYNC, errors: [] };

  // 1. The truth, by SQL.
  ctx.log(`Provisioning: seeding ${PROV_ACCOUNTS.toLocaleString('en-US')} accounts, ${PROV_GROUPS.toLocaleString('en-US')} groups, ${PROV_MEMBERSHIPS.toLocaleString('en-US')} memberships…`);
  let started = performance.now();
  const client = await ctx.pgClient(portal.databaseUrl);
  try {
    await client.query(seedSql());
    await client.query(ANALYZE_SQL);
    result.seeded = (
      await client.query(`select (select count(*)::int from accounts) as accounts, (select count(*)::int from user_groups) as groups,
                                 (select count(*)::int from group_memberships) as memberships, (select count(*)::int from group_nestings) as nestings,
                                 (select count(*)::int from account_subscriptions) as subscriptions,
                                 (select count(*)::int from accounts where not active or closed) as locked`)
    ).rows[0];
    result.requestIds = (
      await client.query(
        `select r.id, a.username from requests r join accounts a on a.id = r.account_id
          where r.kind = 'membership' and r.status = 'pending' and r.details ->> 'user_group' = $1 order by r.id`,
        [DECISION_GROUP],
      )
    ).rows.map((r) => ({ id: Number(r.id), username: r.username }));
  } finally {
    await client.end();
  }
  result.seedMs = performance.now() - started;
  // The first portal is not needed until step 3 (a server with the directory then).
  await ctx.stopChild(portal.child);

  const db = m.postgres.openPostgres({ connectionString: portal.databaseUrl });
  let open = true;
  const closeDb = async () => {
    if (open) {
      open = false;
      await db.close();
    }
  };
  ctx.onCleanup(closeDb);
  try {
    // 2a. The directory's own limit: ldapadd of the same entries from an LDIF file.
    const tmp = ctx.makeTempDir('portal-bench-provisioning-');
    const ldif = join(tmp, 'portal.ldif');
    ctx.log('Provisioning: reading the truth and writing it as LDIF…');
    started = performance.now();
    result.ldif = await writeLdif(m, db, base, ldif);
    result.ldif.ms = performance.now() - started;
    let slapd = await freshSlapd(m, ctx);
    ctx.log(`Provisioning: ldapadd of ${(result.ldif.people + result.ldif.groups + 2).toLocaleString('en-US')} entries (${(result.ldif.bytes / 1024 ** 2).toFixed(0)} MB) into an empty slapd…`);
    started = performance.now();
    await runCommand('ldapadd', ['-x', '-H', slapd.url, '-D', m.slapd.LDAP_ADMIN_DN, '-w', m.slapd.LDAP_ADMIN_PASSWORD, '-f', ldif]);
    result.ldapaddMs = performance.now() - started;
    ctx.log(`Provisioning: ldapadd took ${(result.ldapaddMs / 1000).toFixed(1)} s; reading that directory back…`);
    result.byLdapadd = await readDirectory(m, slapd.url, base);
    await slapd.remove();

    // 2b. The portal's reconcile of an empty directory, then of the up-to-date one.
    slapd = await freshSlapd(m, ctx);
    result.ldapUrl = slapd.url;
    ctx.log('Provisioning: the truth alone (allPeople, allGroups), for the profile…');
    started = performance.now();
    await m.truth.allPeople(db);
    result.peopleQueryMs = performance.now() - started;
    started = performance.now();
    await m.truth.allGroups(db);
    result.groupsQueryMs = performance.now() - started;
    ctx.log("Provisioning: the portal's reconcile of the empty directory…");
    result.emptyReconcile = await timedReconcile(m, db, slapd.url, base);
    ctx.log(`Provisioning: it took ${(result.emptyReconcile.ms / 1000).toFixed(1)} s; reading the directory back…`);
    result.byPortal = await readDirectory(m, slapd.url, base);
    for (const key of ['entries', 'people', 'groups', 'memberValues', 'digest']) {
      if (result.byPortal[key] !== result.byLdapadd[key]) {
        result.errors.push(`the directory after the portal's reconcile differs from ldapadd's: ${key} ${result.byPortal[key]}, ldapadd's ${result.byLdapadd[key]}`);
      }
    }
    ctx.log("Provisioning: the portal's reconcile of the up-to-date directory…");
    result.upToDateReconcile = await timedReconcile(m, db, slapd.url, base);
    if (result.upToDateReconcile.differences !== 0) result.errors.push(`the reconcile of the up-to-date directory found ${result.upToDateReconcile.summary}`);
  } finally {
    await closeDb();
  }
  if (ctx.isInterrupted()) return result;

  // 3. Decisions under the session check's load, on a portal with the directory.
  ctx.log('Provisioning: the portal with the directory configured; waiting for its reconcile at start…');
  const since = Date.now();
  const server = await ctx.startPortal('PostgreSQL with a directory', portal.databaseUrl, portal.dataDir, {
    PORTAL_LDAP_URL: result.ldapUrl,
    PORTAL_LDAP_BIND_DN: m.slapd.LDAP_ADMIN_DN,
    PORTAL_LDAP_BIND_PASSWORD: m.slapd.LDAP_ADMIN_PASSWORD,
    PORTAL_LDAP_BASE_DN: base,
  });
  result.startReconcileMs = await startReconcileDone(ctx, portal.databaseUrl, since);
  result.decisions = await timeDecisions(m, ctx, server, result.ldapUrl, base, result.requestIds, result.errors);
  await ctx.stopChild(server.child);
  return result;
}

/** Approvals one at a time under the session check's load; each until its member is in the directory. */
async function timeDecisions(m, ctx, portal, url, base, requests, errors) {
  const layout = m.names.directoryLayout(base);
  const groupDn = layout.groupDn(`${DECISION_GROUP}-user`);
  const headers = await ctx.adminSession(portal);
  const userHeaders = await ctx.signedInSession(portal);
  const ldap = new m.ldapts.Client({ url, timeout: 10_000, strictDN: false });
  await ldap.bind(m.slapd.LDAP_ADMIN_DN, m.slapd.LDAP_ADMIN_PASSWORD);
  const visible = async (username) => {
    try {
      const { searchEntries } = await ldap.search(groupDn, { scope: 'base', filter: new m.ldapts.EqualityFilter({ attribute: 'member', value: layout.personDn(username) }), attributes: ['1.1'] });
      return searchEntries.length === 1;
    } catch (error) {
      if (error instanceof m.ldapts.NoSuchObjectError) return false;
      throw error;
    }
  };
  const load = ctx.sessionLoad(portal, userHeaders);
  const times = [];
  const agent = ctx.newAgent(1);
  let session;
  try {
    await new Promise((resolve) => setTimeout(resolve, LOAD_WARMUP_MS));
    for (const { id, username } of requests) {
      if (ctx.isInterrupted()) break;
      const response = await ctx.request(agent, portal.port, { method: 'POST', path: `${ctx.API}/requests/membership/${id}/approved`, headers, body: JSON.stringify({ comment: 'Provisioning bench' }) });
      const answered = performance.now();
      if (response.status !== 200) {
        errors.push(`approval of request ${id}: HTTP ${response.status} ${response.body.slice(0, 80)}`);
        continue;
      }
      for (;;) {
        if (await visible(username)) {
          times.push(performance.now() - answered);
          break;
        }
        if (performance.now() - answered > DECISION_TIMEOUT_MS) {
          errors.push(`${username} was not in cn=${DECISION_GROUP}-user ${DECISION_TIMEOUT_MS / 1000} s after its approval`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, DECISION_POLL_MS));
      }
      // The next decision at a time of no relation to the worker's polling.
      await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 800));
    }
  } finally {
    session = await load.stop();
    agent.destroy();
    await ldap.unbind().catch(() => undefined);
  }
  return { times, p50: pct(times, 0.5), p95: pct(times, 0.95), max: times.length ? Math.max(...times) : NaN, session };
}

const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const n = (value) => (Number.isFinite(value) ? value.toLocaleString('en-US') : '–');

/** The three figures with a target: { what, value, figure, target, met }. */
function targetsOf(r) {
  const rows = [];
  if (r.emptyReconcile && Number.isFinite(r.ldapaddMs)) {
    const ratio = r.emptyReconcile.ms / r.ldapaddMs;
    rows.push({
      what: 'full reconcile of an empty directory, × ldapadd of the same entries',
      figure: `${fmt(ratio, 2)} (${fmt(r.emptyReconcile.ms / 1000)} s; ldapadd ${fmt(r.ldapaddMs / 1000)} s)`,
      target: `≤ ${PROV_TARGET_RATIO}`,
      met: ratio <= PROV_TARGET_RATIO,
    });
  }
  if (r.upToDateReconcile) {
    rows.push({
      what: 'full reconcile of an up-to-date directory',
      figure: `${fmt(r.upToDateReconcile.ms / 1000)} s`,
      target: `≤ ${PROV_TARGET_UP_TO_DATE_S} s`,
      met: r.upToDateReconcile.ms <= PROV_TARGET_UP_TO_DATE_S * 1000,
    });
  }
  if (r.decisions) {
    rows.push({
      what: 'a decision visible in the directory, p95, under the session check load',
      figure: `${fmt(r.decisions.p95, 0)} ms`,
      target: `≤ ${PROV_TARGET_DECISION_P95_MS} ms`,
      met: r.decisions.p95 <= PROV_TARGET_DECISION_P95_MS,
    });
  }
  return rows;
}

const scaleNote = (r) => (r.scale === 1 ? '' : ` AT ${r.scale} OF THE SCALE (BENCH_PROVISIONING_SCALE)`);

export function provisioningReport(results, note) {
  if (note) return ['', note];
  const lines = [];
  for (const r of results) {
    const s = r.seeded ?? {};
    lines.push(
      '',
      `Provisioning at scale${scaleNote(r)} on PostgreSQL and OpenLDAP slapd (the provisioning tests' configuration: mdb, the memberof overlay${r.noSync ? '; olcDbNoSync: no fsync at each write' : ''}): ` +
        `${n(s.accounts)} accounts (${n(s.locked)} locked or closed), ${n(s.groups)} user groups (${n(s.nestings)} nestings), ${n(s.memberships)} memberships, ` +
        `${n(s.subscriptions)} subscriptions of their own; seeding took ${fmt(r.seedMs / 1000)} s.`,
    );
    if (r.ldif) {
      lines.push(
        `  The portal's truth: ${n(r.ldif.people)} people, ${n(r.ldif.groups)} groups holding ${n(r.ldif.memberValues)} member values ` +
          `(read and written as LDIF, ${fmt(r.ldif.bytes / 1024 ** 2, 0)} MB, in ${fmt(r.ldif.ms / 1000)} s; allPeople ${fmt(r.peopleQueryMs / 1000, 1)} s, allGroups ${fmt(r.groupsQueryMs / 1000, 1)} s).`,
      );
    }
    if (r.byLdapadd && r.byPortal) {
      const same = ['entries', 'people', 'groups', 'memberValues', 'digest'].every((k) => r.byLdapadd[k] === r.byPortal[k]);
      lines.push(
        `  Read back: ldapadd's directory ${n(r.byLdapadd.entries)} entries, ${n(r.byLdapadd.memberValues)} member values (digest ${r.byLdapadd.digest}); ` +
          `the portal's ${n(r.byPortal.entries)} entries, ${n(r.byPortal.memberValues)} member values (digest ${r.byPortal.digest}): ${same ? 'the same' : 'DIFFERENT'}.`,
      );
    }
    if (r.emptyReconcile) lines.push(`  Reconcile of the empty directory: ${r.emptyReconcile.summary}.`);
    if (r.upToDateReconcile) lines.push(`  Reconcile of the up-to-date directory: ${r.upToDateReconcile.summary}.`);
    if (Number.isFinite(r.startReconcileMs)) lines.push(`  The portal's own reconcile at its start (the directory up to date) ended ${fmt(r.startReconcileMs / 1000)} s after it was started.`);
    if (r.decisions) {
      const d = r.decisions;
      lines.push(
        `  ${d.times.length} approvals (POST /requests/membership/{id}/approved) one at a time, each timed from the API's answer until the member is in cn=${DECISION_GROUP}-user (polled every ${DECISION_POLL_MS} ms): ` +
          `p50 ${fmt(d.p50, 0)} ms, p95 ${fmt(d.p95, 0)} ms, max ${fmt(d.max, 0)} ms; meanwhile the session check at ${d.session.rate}/s asked held ${fmt(d.session.held, 0)}/s, p95 ${fmt(d.session.p95, 2)} ms, ${d.session.errors} errors.`,
      );
    }
    const rows = targetsOf(r);
    if (rows.length) {
      lines.push('', '| what | figure | target | |', '|---|---:|---|---|');
      for (const row of rows) lines.push(`| ${row.what} | ${row.figure} | ${row.target} | ${row.met ? 'met' : 'MISSED'} |`);
    }
  }
  return lines;
}

export function provisioningErrors(results) {
  const lines = [];
  for (const r of results) {
    for (const e of r.errors) lines.push(`  provisioning: ${e}`);
    if (r.decisions?.session.errors) lines.push(`  provisioning, the session check under load: ${r.decisions.session.errorText}`);
  }
  return lines;
}

/** The rows of docs/performance.md's table (a full run at full scale only). */
export function provisioningFigures(results) {
  return results.filter((r) => r.scale === 1).flatMap((r) => targetsOf(r).map(({ what, figure, target, met }) => ({ what, figure, target, met })));
}
