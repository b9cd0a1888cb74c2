/**
 * A SCIM 2.0 service as a provisioning target (docs/provisioning.md, "SCIM 2.0"; RFC 7643 and RFC
 * 7644), for services that take pushes rather than read a directory (Artifactory, SonarQube
 * Enterprise, GitLab). Each account the portal approved is a User: userName, name, displayName,
 * one primary work email, `active` while the account is in good standing, `externalId` the
 * portal's account id. Each group with members is a Group (displayName and externalId its name)
 * holding the Users of exactly the accounts the portal records as holding it; as in the directory,
 * a group whose last member leaves is deleted. Resources are found by filter (`userName eq "…"`,
 * the value written as a JSON string, as RFC 7644 §3.4.2.2 asks); memberships change by PATCH:
 * `add` to `members`, `remove` with the path `members[value eq "…"]`. A Group whose externalId is
 * not its name and a User that is no account of the portal are not the portal's: reported by a
 * reconcile and left in place. The bearer token never appears in a message. Node's fetch.
 */
import type { Queryable } from '../../db/database.js';
import { allGroups, allPeople, findPerson, groupsOfAccount, membersOfGroup, type Person } from '../../repositories/provisioning/truth.js';
import { chunks, emptyReport, groupDrift, inParallel, objectParts, ProvisioningError, type ProvisioningTarget, type ReconcileReport } from './target.js';

export interface ScimSettings {
  /** The target is 'scim:<name>'. */
  name: string;
  /** The SCIM base address (…/scim/v2). */
  url: string;
  token: string;
  /** How long one request may take (default 30 s). */
  timeoutMs?: number;
}

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
/** Resources asked for per page of a list. */
const PAGE = 200;
/** Members changed per PATCH request. */
const CHUNK = 100;
/** Up to this many members of a group are looked up one by one; more: all Users are listed once. */
const LOOKUPS = 20;
/** Requests in flight at once during a reconcile. */
const PARALLEL = 8;
const MAX_DRIFT_LINES = 200;
const MAX_DETAIL = 300;

interface ScimUser {
  id: string;
  userName: string;
  externalId?: string;
  name?: { givenName?: string; familyName?: string };
  displayName?: string;
  emails?: { value?: string; type?: string; primary?: boolean }[];
  active?: boolean;
}

interface ScimGroup {
  id: string;
  displayName: string;
  externalId?: string;
  members?: { value: string }[];
}

interface ListResponse<T> {
  totalResults?: number;
  Resources?: T[];
}

type UserBody = Omit<ScimUser, 'id'> & { schemas: string[] };

/** The User as the service should hold it. */
function userOf(person: Person): UserBody {
  const givenName = person.firstName?.trim() || undefined;
  const familyName = person.lastName?.trim() || undefined;
  return {
    schemas: [USER_SCHEMA],
    userName: person.username,
    externalId: String(person.id),
    ...(givenName || familyName ? { name: { ...(givenName ? { givenName } : {}), ...(familyName ? { familyName } : {}) } } : {}),
    displayName: [givenName, familyName].filter((part) => part !== undefined).join(' ') || person.username,
    emails: [{ value: person.email, type: 'work', primary: true }],
    active: person.inGoodStanding,
  };
}

/** The attributes the portal keeps that differ between what the service holds and `want`. */
function userDifferences(have: ScimUser, want: UserBody): string[] {
  const email = (user: Pick<ScimUser, 'emails'>) => (user.emails?.find((e) => e.primary) ?? user.emails?.[0])?.value;
  const differ: string[] = [];
  if (have.userName !== want.userName) differ.push('userName');
  if (have.externalId !== want.externalId) differ.push('externalId');
  if ((have.name?.givenName || undefined) !== want.name?.givenName || (have.name?.familyName || undefined) !== want.name?.familyName) differ.push('name');
  if (have.displayName !== want.displayName) differ.push('displayName');
  if (email(have) !== email(want)) differ.push('emails');
  if ((have.active ?? true) !== want.active) differ.push('active');
  return differ;
}

/** A filter comparing one attribute with a string: the value is a JSON string (RFC 7644 §3.4.2.2). */
const equals = (attribute: string, value: string) => `${attribute} eq ${JSON.stringify(value)}`;

const isPortalGroup = (group: ScimGroup) => group.externalId === group.displayName;

/** Whether fetch failed because the connection was closed before an answer began (not a refusal or a timeout). */
function closedBeforeAnswer(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
}

export function createScimTarget(settings: ScimSettings): ProvisioningTarget {
  const base = settings.url.replace(/\/+$/, '');
  const timeoutMs = settings.timeoutMs ?? 30_000;
  const hide = (text: string) => (settings.token === '' ? text : text.split(settings.token).join('***'));
  const fail = (message: string, unreachable = false) => new ProvisioningError(hide(message), unreachable);

  /** What the service said about a refusal (its SCIM error's scimType and detail), shortened. */
  function detailOf(text: string): string {
    let said = '';
    try {
      const error = JSON.parse(text) as { scimType?: unknown; detail?: unknown };
      said = [error.scimType, error.detail].filter((part): part is string => typeof part === 'string' && part !== '').join(': ');
    } catch {
      // not a SCIM error: the status says enough
    }
    said = said.replace(/\s+/g, ' ').trim();
    return said.length > MAX_DETAIL ? `${said.slice(0, MAX_DETAIL)}…` : said;
  }

  /**
   * One request; `what` says it in words ('create User alice'). Undefined: no content, or 404 with
   * `missingOk`. A service that does not answer, refuses the token or is unavailable fails every
   * object alike (`unreachable`); any other refusal is this object's.
   */
  async function request<T>(method: string, path: string, what: string, options: { body?: unknown; query?: Record<string, string>; missingOk?: boolean } = {}): Promise<T | undefined> {
    const query = Object.entries(options.query ?? {}).map(([key, value]) => `${key}=${encodeURIComponent(value)}`);
    const url = `${base}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
    let status: number;
    let text: string;
    const send = async () => {
      const response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${settings.token}`,
          accept: 'application/scim+json, application/json',
          ...(options.body === undefined ? {} : { 'content-type': 'application/scim+json' }),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: response.status, text: await response.text() };
    };
    try {
      for (let sent = 1; ; sent++) {
        try {
          ({ status, text } = await send());
          break;
        } catch (error) {
          // A kept-alive connection the service has just closed (a restart, its idle timeout) fails
          // before any answer. A request that changes nothing when sent twice (all but POST here:
          // PATCH adds or removes given members) is sent again, as HTTP allows (RFC 9110 section
          // 9.2.2): on the next kept connection, which may be closed too (as many are kept as
          // requests are in flight, PARALLEL), or on a new one.
          if (method === 'POST' || !closedBeforeAnswer(error) || sent > PARALLEL) throw error;
        }
      }
    } catch (error) {
      const cause = (error as { cause?: { code?: unknown } }).cause;
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${Math.round(timeoutMs / 1000)} s`
          : typeof cause?.code === 'string'
            ? cause.code
            : error instanceof Error
              ? error.message
              : String(error);
      throw fail(`the SCIM service did not answer at ${base} (${reason})`, true);
    }
    if (status === 404 && options.missingOk) return undefined;
    if (status < 200 || status > 299) {
      const detail = detailOf(text);
      const said = `${status}${detail === '' ? '' : `, ${detail}`}`;
      if (status === 401 || status === 403) {
        throw fail(`the SCIM service at ${base} refused the portal's token (${said}); check the token of '${settings.name}' in PORTAL_SCIM_TARGETS`, true);
      }
      if ([429, 502, 503, 504].includes(status)) throw fail(`the SCIM service at ${base} is busy or unavailable (${said})`, true);
      throw fail(`the SCIM service refused to ${what} (${said})`);
    }
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw fail(`the SCIM service answered '${what}' with something other than JSON (${status})`);
    }
  }

  /** Every resource of an endpoint matching `filter`, page by page. */
  async function list<T>(endpoint: string, what: string, filter?: string, attributes?: string): Promise<T[]> {
    const all: T[] = [];
    for (let start = 1; ; ) {
      const page = await request<ListResponse<T>>('GET', endpoint, what, {
        query: { ...(filter === undefined ? {} : { filter }), ...(attributes === undefined ? {} : { attributes }), startIndex: String(start), count: String(PAGE) },
      });
      const resources = page?.Resources ?? [];
      all.push(...resources);
      start += resources.length;
      if (resources.length === 0 || start > (page?.totalResults ?? 0)) return all;
    }
  }

  async function findUser(username: string): Promise<ScimUser | null> {
    const found = await list<ScimUser>('/Users', `find User ${username}`, equals('userName', username));
    return found.find((u) => u.userName === username) ?? found.find((u) => u.userName?.toLowerCase() === username.toLowerCase()) ?? null;
  }

  async function findGroup(name: string): Promise<ScimGroup | null> {
    const found = await list<ScimGroup>('/Groups', `find Group ${name}`, equals('displayName', name));
    return found.find((g) => g.displayName === name) ?? null;
  }

  async function createUser(want: UserBody): Promise<string> {
    const created = await request<ScimUser>('POST', '/Users', `create User ${want.userName}`, { body: want });
    if (typeof created?.id !== 'string') throw fail(`the SCIM service created User ${want.userName} without saying its id`);
    return created.id;
  }

  async function replaceUser(id: string, want: UserBody): Promise<void> {
    await request('PUT', `/Users/${encodeURIComponent(id)}`, `replace User ${want.userName}`, { body: want });
  }

  /** Creates or corrects the person's User; its id. */
  async function upsertUser(person: Person): Promise<string> {
    const want = userOf(person);
    const have = await findUser(person.username);
    if (have === null) return createUser(want);
    if (userDifferences(have, want).length > 0) await replaceUser(have.id, want);
    return have.id;
  }

  async function createGroup(name: string, memberIds: readonly string[]): Promise<void> {
    await request('POST', '/Groups', `create Group ${name}`, {
      body: { schemas: [GROUP_SCHEMA], displayName: name, externalId: name, members: memberIds.map((value) => ({ value })) },
    });
  }

  async function deleteGroup(group: ScimGroup): Promise<void> {
    await request('DELETE', `/Groups/${encodeURIComponent(group.id)}`, `delete Group ${group.displayName}`, { missingOk: true });
  }

  async function patchMembers(group: ScimGroup, add: readonly string[], remove: readonly string[]): Promise<void> {
    const what = `change the members of Group ${group.displayName}`;
    const path = `/Groups/${encodeURIComponent(group.id)}`;
    for (const part of chunks(add, CHUNK)) {
      await request('PATCH', path, what, { body: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'add', path: 'members', value: part.map((value) => ({ value })) }] } });
    }
    for (const part of chunks(remove, CHUNK)) {
      const Operations = part.map((id) => ({ op: 'remove', path: `members[${equals('value', id)}]` }));
      await request('PATCH', path, what, { body: { schemas: [PATCH_SCHEMA], Operations } });
    }
  }

  async function applyAccount(db: Queryable, accountId: number): Promise<void> {
    const person = await findPerson(db, accountId);
    if (person === null) return; // never approved, or gone: no User can be named
    const wanted = new Set(person.inGoodStanding ? await groupsOfAccount(db, accountId) : []);
    const id = await upsertUser(person);
    const current = await list<ScimGroup>('/Groups', `find the groups of User ${person.username}`, equals('members.value', id), 'displayName,externalId');
    const have = new Map(current.map((g) => [g.displayName, g]));
    for (const name of wanted) {
      if (have.has(name)) continue;
      const group = await findGroup(name);
      if (group === null) await createGroup(name, [id]);
      else await patchMembers(group, [id], []);
    }
    for (const [name, group] of have) {
      if (wanted.has(name) || !isPortalGroup(group)) continue;
      // The portal's last member of it: the group goes, as in the directory.
      if ((await membersOfGroup(db, name)).length === 0) await deleteGroup(group);
      else await patchMembers(group, [], [id]);
    }
  }

  /** The ids of the Users of `usernames` (lower-cased keys); Users missing are created first. */
  async function userIds(db: Queryable, usernames: readonly string[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    if (usernames.length <= LOOKUPS) {
      for (const username of usernames) {
        const user = await findUser(username);
        if (user !== null) ids.set(username.toLowerCase(), user.id);
      }
    } else {
      const wanted = new Set(usernames.map((u) => u.toLowerCase()));
      for (const user of await list<ScimUser>('/Users', 'list Users', undefined, 'userName')) {
        if (wanted.has(user.userName?.toLowerCase())) ids.set(user.userName.toLowerCase(), user.id);
      }
    }
    const missing = new Set(usernames.map((u) => u.toLowerCase()).filter((u) => !ids.has(u)));
    if (missing.size > 0) {
      for (const person of await allPeople(db)) {
        if (missing.has(person.username.toLowerCase())) ids.set(person.username.toLowerCase(), await createUser(userOf(person)));
      }
    }
    return ids;
  }

  /**
   * Makes one Group hold exactly `wanted` (User id → username): created with its members, changed
   * by PATCH, deleted when the portal has no member in it. What differed, or null.
   */
  async function convergeGroup(name: string, wanted: ReadonlyMap<string, string>, group: ScimGroup | null, dryRun: boolean): Promise<string | null> {
    const have = new Set((group?.members ?? []).map((m) => m.value));
    const missing = [...wanted.keys()].filter((id) => !have.has(id));
    const extra = [...have].filter((id) => !wanted.has(id));
    const said = groupDrift(`Group ${name}`, { exists: group !== null, wanted: wanted.size, have: have.size, missing: missing.length, extra: extra.length });
    if (said === null) return null;
    if (dryRun) return said;
    if (group === null) await createGroup(name, missing);
    else if (wanted.size === 0) await deleteGroup(group);
    else await patchMembers(group, missing, extra);
    return said;
  }

  async function applyGroup(db: Queryable, name: string): Promise<void> {
    const members = await membersOfGroup(db, name);
    const group = await findGroup(name);
    if (group === null && members.length === 0) return;
    // Some services leave the members out of a list's Groups; the Group read by its id has them.
    const full = group === null ? null : await request<ScimGroup>('GET', `/Groups/${encodeURIComponent(group.id)}`, `read Group ${name}`, { missingOk: true });
    const ids = await userIds(db, members);
    const wanted = new Map<string, string>();
    for (const username of members) {
      const id = ids.get(username.toLowerCase());
      if (id !== undefined) wanted.set(id, username);
    }
    await convergeGroup(name, wanted, full ?? null, false);
  }

  async function reconcile(db: Queryable, { dryRun }: { dryRun: boolean }): Promise<ReconcileReport> {
    const report = emptyReport();
    const drift = (line: string) => {
      report.differences++;
      if (report.drift.length < MAX_DRIFT_LINES) report.drift.push(line);
    };
    const people = await allPeople(db);
    const groups = await allGroups(db);
    // Users: every account has one, with the portal's values.
    const users = await list<ScimUser>('/Users', 'list Users');
    const byUserName = new Map(users.map((u) => [u.userName?.toLowerCase(), u]));
    const ids = new Map<string, string>();
    await inParallel(people, PARALLEL, async (person) => {
      const key = person.username.toLowerCase();
      const have = byUserName.get(key);
      byUserName.delete(key);
      const want = userOf(person);
      if (have === undefined) {
        drift(`User ${person.username}: missing`);
        report.created++;
        if (!dryRun) ids.set(key, await createUser(want));
        return;
      }
      ids.set(key, have.id);
      const differ = userDifferences(have, want);
      if (differ.length === 0) return;
      drift(`User ${person.username}: ${differ.join(', ')} differ${differ.length === 1 ? 's' : ''}`);
      report.updated++;
      if (!dryRun) await replaceUser(have.id, want);
    });
    for (const user of byUserName.values()) {
      drift(`User ${user.userName}: not an account of the portal`);
      report.unknown.push(`User ${user.userName}`);
    }
    // Groups: each group with members holds exactly them; the portal's groups without members go.
    const existing = await list<ScimGroup>('/Groups', 'list Groups');
    const byName = new Map(existing.map((g) => [g.displayName, g]));
    await inParallel([...groups], PARALLEL, async ([name, members]) => {
      const group = byName.get(name) ?? null;
      byName.delete(name);
      // A User a dry run did not create has no id: it counts as a missing member.
      const wanted = new Map(members.map((username) => [ids.get(username.toLowerCase()) ?? `(no User ${username})`, username]));
      const said = await convergeGroup(name, wanted, group, dryRun);
      if (said === null) return;
      drift(said);
      if (group === null) report.created++;
      else report.updated++;
    });
    for (const group of byName.values()) {
      if (!isPortalGroup(group)) {
        drift(`Group ${group.displayName}: not a group of the portal`);
        report.unknown.push(`Group ${group.displayName}`);
        continue;
      }
      drift(`Group ${group.displayName}: the portal has no member in it`);
      report.removed++;
      if (!dryRun) await deleteGroup(group);
    }
    return report;
  }

  return {
    name: `scim:${settings.name}`,
    kind: 'scim',
    async apply(object, db) {
      const { kind, key } = objectParts(object);
      if (kind === 'account') await applyAccount(db, Number(key));
      else if (kind === 'group') await applyGroup(db, key);
    },
    reconcile,
    async close() {
      // Nothing is held open: fetch's connections are pooled by Node.
    },
  };
}
