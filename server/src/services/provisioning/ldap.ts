/**
 * The LDAP directory target (docs/provisioning.md, "The directory"): people under ou=people,
 * groups under ou=groups of PORTAL_LDAP_BASE_DN, both created when missing. Each account is
 * `uid={username}` (inetOrgPerson, whatever its state: the services keep its history); each group
 * with at least one member is `cn={name}` (groupOfNames, whose `member` must not be empty, so a
 * group's last member leaving deletes its entry). Every entry the portal writes carries its mark
 * in `description`; an entry under the two OUs without it is not the portal's: reported as drift
 * and deleted only with PORTAL_LDAP_PRUNE=true. Built on ldapts (maintained; ldapjs is not).
 */
import {
  AlreadyExistsError,
  Attribute,
  Change,
  Client,
  EqualityFilter,
  InvalidCredentialsError,
  NoSuchAttributeError,
  NoSuchObjectError,
  ObjectClassViolationError,
  ResultCodeError,
  TypeOrValueExistsError,
  type Entry,
} from 'ldapts';
import type { Queryable } from '../../db/database.js';
import { allGroups, allPeople, findPerson, groupsOfAccount, membersOfGroup, type Person } from '../../repositories/provisioning/truth.js';
import { directoryLayout } from './ldap-names.js';
import { chunks, emptyReport, groupDrift, inParallel, objectParts, ProvisioningError, type ProvisioningTarget, type ReconcileReport } from './target.js';

export interface LdapSettings {
  url: string;
  bindDn: string;
  bindPassword: string;
  baseDn: string;
  /** Delete entries under the portal's OUs that it does not know. */
  prune: boolean;
}

/** The mark of the portal's own entries (their `description`). */
export const PORTAL_MARK = 'Kept by the account portal: a change made here by hand is undone.';
/** Values per modify request when a group's member list changes a lot. */
const CHUNK = 1000;
/** Requests in flight at once on the connection during a reconcile. */
const PARALLEL = 16;
const MAX_DRIFT_LINES = 200;

type Values = string[];

function valuesOf(entry: Entry, attribute: string): Values {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)));
}

/** The person's attributes as the directory should hold them. */
function personAttributes(person: Person): Record<string, string> {
  const displayName = [person.firstName, person.lastName].filter((part) => part !== null && part.trim() !== '').join(' ') || person.username;
  const attributes: Record<string, string> = {
    uid: person.username,
    cn: displayName,
    sn: person.lastName?.trim() || person.username,
    mail: person.email,
    displayName,
    description: PORTAL_MARK,
  };
  if (person.firstName?.trim()) attributes.givenName = person.firstName.trim();
  return attributes;
}

const PERSON_ATTRIBUTES = ['uid', 'cn', 'sn', 'givenName', 'mail', 'displayName', 'description'];

/**
 * The entries the portal writes, attribute by attribute (objectClass first): a person, a group
 * with its members' DNs, one of its two OUs. The target adds exactly these; the bench writes them
 * as an LDIF file to time the directory's own load of the same entries.
 */
export function personEntry(person: Person): Record<string, string | string[]> {
  return { objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'], ...personAttributes(person) };
}

export function groupEntry(name: string, memberDns: readonly string[]): Record<string, string | string[]> {
  return { objectClass: ['top', 'groupOfNames'], cn: name, member: [...memberDns], description: PORTAL_MARK };
}

export function ouEntry(ou: string): Record<string, string | string[]> {
  return { objectClass: ['top', 'organizationalUnit'], ou, description: PORTAL_MARK };
}

/** The replace/delete changes that make `entry` hold `wanted` (only the attributes the portal keeps). */
function personChanges(entry: Entry, wanted: Record<string, string>): Change[] {
  const changes: Change[] = [];
  for (const attribute of PERSON_ATTRIBUTES) {
    if (attribute === 'uid') continue;
    const have = valuesOf(entry, attribute);
    const want = wanted[attribute];
    if (want === undefined) {
      if (have.length > 0) changes.push(new Change({ operation: 'delete', modification: new Attribute({ type: attribute }) }));
    } else if (have.length !== 1 || have[0] !== want) {
      changes.push(new Change({ operation: 'replace', modification: new Attribute({ type: attribute, values: [want] }) }));
    }
  }
  return changes;
}

export function createLdapTarget(settings: LdapSettings): ProvisioningTarget {
  const layout = directoryLayout(settings.baseDn);
  let client: Client | undefined;
  let layoutReady = false;

  /** A failure in words, never with the password; connection-level failures are `unreachable`. */
  function failure(error: unknown): ProvisioningError {
    if (error instanceof ProvisioningError) return error;
    const hide = (text: string) => (settings.bindPassword === '' ? text : text.split(settings.bindPassword).join('***'));
    if (error instanceof InvalidCredentialsError) {
      return new ProvisioningError(`the directory refused the portal's credentials (PORTAL_LDAP_BIND_DN ${settings.bindDn})`, true);
    }
    if (error instanceof ResultCodeError) return new ProvisioningError(`the directory refused a change: ${hide(error.message)}`);
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : String(error);
    if (code !== undefined || /timeout|closed|connect/i.test(message)) {
      return new ProvisioningError(`the directory did not answer at ${settings.url} (${hide(code ?? message)})`, true);
    }
    return new ProvisioningError(`the directory could not be updated: ${hide(message)}`);
  }

  async function connection(): Promise<Client> {
    if (client?.isBound) return client;
    // Closed by the directory (a restart, an idle timeout): ldapts would reconnect it unbound, and
    // the portal's changes would then be refused as anonymous. A new bound connection instead.
    if (client) {
      const stale = client;
      client = undefined;
      layoutReady = false;
      await stale.unbind().catch(() => undefined);
    }
    const fresh = new Client({ url: settings.url, timeout: 30_000, connectTimeout: 5_000, strictDN: false });
    try {
      await fresh.bind(settings.bindDn, settings.bindPassword);
    } catch (error) {
      await fresh.unbind().catch(() => undefined);
      throw failure(error);
    }
    client = fresh;
    return fresh;
  }

  /**
   * Runs `fn` on the connection; any failure drops it, so the next call connects afresh. A kept
   * connection that the directory closed before it answered (closed as the request went out) is
   * opened anew once and `fn` run again: each change reads the entries first and writes only what
   * differs, so a second run changes nothing more than the first would have.
   */
  async function using<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    const kept = client?.isBound === true;
    const c = await connection();
    try {
      return await fn(c);
    } catch (error) {
      client = undefined;
      layoutReady = false;
      await c.unbind().catch(() => undefined);
      const failed = failure(error);
      if (kept && failed.unreachable) return using(fn);
      throw failed;
    }
  }

  async function find(c: Client, dn: string, attributes: string[]): Promise<Entry | null> {
    try {
      const { searchEntries } = await c.search(dn, { scope: 'base', attributes });
      return searchEntries[0] ?? null;
    } catch (error) {
      if (error instanceof NoSuchObjectError) return null;
      throw error;
    }
  }

  async function ensureLayout(c: Client): Promise<void> {
    if (layoutReady) return;
    if ((await find(c, layout.base, ['1.1'])) === null) {
      throw new ProvisioningError(`the directory has no entry ${layout.base} (PORTAL_LDAP_BASE_DN): create it, then the portal fills it`);
    }
    for (const [dn, ou] of [
      [layout.people, 'people'],
      [layout.groups, 'groups'],
    ] as const) {
      try {
        await c.add(dn, ouEntry(ou));
      } catch (error) {
        if (!(error instanceof AlreadyExistsError)) throw error;
      }
    }
    layoutReady = true;
  }

  /**
   * Creates or corrects the person's entry (`known`: the entry as already read, null when it was
   * missing); says which it did. An entry made meanwhile (another server applying a change of the
   * same account, or a reconcile) is read again and corrected, not a failure.
   */
  async function upsertPerson(c: Client, person: Person, known?: Entry | null): Promise<'created' | 'updated' | 'same'> {
    const entry = known === undefined ? await find(c, layout.personDn(person.username), PERSON_ATTRIBUTES) : known;
    if (entry === null) {
      try {
        await c.add(layout.personDn(person.username), personEntry(person));
        return 'created';
      } catch (error) {
        if (!(error instanceof AlreadyExistsError)) throw error;
        return upsertPerson(c, person);
      }
    }
    const changes = personChanges(entry, personAttributes(person));
    if (changes.length === 0) return 'same';
    await c.modify(layout.personDn(person.username), changes);
    return 'updated';
  }

  async function addMembers(c: Client, group: string, memberDns: readonly string[]): Promise<void> {
    const dn = layout.groupDn(group);
    for (const part of chunks(memberDns, CHUNK)) {
      try {
        await c.modify(dn, [new Change({ operation: 'add', modification: new Attribute({ type: 'member', values: part }) })]);
      } catch (error) {
        if (error instanceof TypeOrValueExistsError) {
          // Some are there already (another pass got there first): the others one by one.
          if (part.length > 1) {
            for (const one of part) {
              await addMembers(c, group, [one]);
            }
          }
          continue;
        }
        if (!(error instanceof NoSuchObjectError)) throw error;
        try {
          await c.add(dn, groupEntry(group, part));
        } catch (addError) {
          if (!(addError instanceof AlreadyExistsError)) throw addError;
          await addMembers(c, group, part);
        }
      }
    }
  }

  /** Removes members; the group's entry goes with its last member (groupOfNames needs one). */
  async function removeMembers(c: Client, group: string, memberDns: readonly string[]): Promise<void> {
    const dn = layout.groupDn(group);
    for (const part of chunks(memberDns, CHUNK)) {
      try {
        await c.modify(dn, [new Change({ operation: 'delete', modification: new Attribute({ type: 'member', values: part }) })]);
      } catch (error) {
        if (error instanceof NoSuchObjectError) return;
        if (error instanceof NoSuchAttributeError) {
          if (part.length > 1) for (const one of part) await removeMembers(c, group, [one]);
          continue;
        }
        if (!(error instanceof ObjectClassViolationError)) throw error;
        // These were its last members.
        await c.del(dn).catch((e) => (e instanceof NoSuchObjectError ? undefined : Promise.reject(e)));
        return;
      }
    }
  }

  async function applyAccount(db: Queryable, accountId: number): Promise<void> {
    const person = await findPerson(db, accountId);
    if (person === null) return; // never approved, or gone: no entry can be named
    const wanted = new Set(person.inGoodStanding ? await groupsOfAccount(db, accountId) : []);
    await using(async (c) => {
      await ensureLayout(c);
      await upsertPerson(c, person);
      const dn = layout.personDn(person.username);
      const { searchEntries } = await c.search(layout.groups, {
        scope: 'one',
        filter: new EqualityFilter({ attribute: 'member', value: dn }),
        attributes: ['cn', 'description'],
      });
      const current = new Set<string>();
      for (const entry of searchEntries) {
        const [name] = valuesOf(entry, 'cn');
        if (name === undefined || !valuesOf(entry, 'description').includes(PORTAL_MARK)) continue;
        current.add(name);
      }
      for (const group of wanted) if (!current.has(group)) await addMembers(c, group, [dn]);
      for (const group of current) if (!wanted.has(group)) await removeMembers(c, group, [dn]);
    });
  }

  /** Makes one group's entry hold exactly `members` (usernames); returns what it found different. */
  async function convergeGroup(c: Client, group: string, members: readonly string[], existing: Entry | null | undefined, dryRun = false): Promise<string | null> {
    const entry = existing === undefined ? await find(c, layout.groupDn(group), ['member', 'description']) : existing;
    const wanted = new Map(members.map((m) => [layout.personDn(m).toLowerCase(), layout.personDn(m)]));
    const have = new Map((entry ? valuesOf(entry, 'member') : []).map((m) => [m.toLowerCase(), m]));
    const missing = [...wanted].filter(([key]) => !have.has(key)).map(([, dn]) => dn);
    const extra = [...have].filter(([key]) => !wanted.has(key)).map(([, dn]) => dn);
    const said = groupDrift(`cn=${group}`, { exists: entry !== null, wanted: wanted.size, have: have.size, missing: missing.length, extra: extra.length });
    if (said === null) return null;
    if (dryRun) return said;
    if (wanted.size === 0) {
      await c.del(layout.groupDn(group)).catch((e) => (e instanceof NoSuchObjectError ? undefined : Promise.reject(e)));
      return said;
    }
    if (missing.length > 0) await addMembers(c, group, missing);
    if (extra.length > 0) await removeMembers(c, group, extra);
    return said;
  }

  async function applyGroup(db: Queryable, group: string): Promise<void> {
    const members = await membersOfGroup(db, group);
    await using(async (c) => {
      await ensureLayout(c);
      await convergeGroup(c, group, members, undefined);
    });
  }

  async function listEntries(c: Client, base: string, attributes: string[]): Promise<Entry[]> {
    const entries: Entry[] = [];
    for await (const page of c.searchPaginated(base, { scope: 'one', attributes, paged: { pageSize: 1000 } })) entries.push(...page.searchEntries);
    return entries;
  }

  async function reconcile(db: Queryable, { dryRun }: { dryRun: boolean }): Promise<ReconcileReport> {
    const report = emptyReport();
    const drift = (line: string) => {
      report.differences++;
      if (report.drift.length < MAX_DRIFT_LINES) report.drift.push(line);
    };
    const people = await allPeople(db);
    const groups = await allGroups(db);
    await using(async (c) => {
      if (!dryRun) await ensureLayout(c);
      // People: every account has an entry, with the portal's values.
      const existingPeople = (await find(c, layout.people, ['1.1'])) === null ? [] : await listEntries(c, layout.people, PERSON_ATTRIBUTES);
      const byUid = new Map(existingPeople.map((e) => [(valuesOf(e, 'uid')[0] ?? '').toLowerCase(), e]));
      await inParallel(people, PARALLEL, async (person) => {
        const entry = byUid.get(person.username.toLowerCase());
        byUid.delete(person.username.toLowerCase());
        if (entry === undefined) {
          drift(`uid=${person.username}: missing`);
          report.created++;
          if (!dryRun) await upsertPerson(c, person, null);
          return;
        }
        const changes = personChanges(entry, personAttributes(person));
        if (changes.length === 0) return;
        drift(`uid=${person.username}: ${changes.map((ch) => ch.modification.type).join(', ')} differ${changes.length === 1 ? 's' : ''}`);
        report.updated++;
        if (!dryRun) await c.modify(layout.personDn(person.username), changes);
      });
      for (const entry of byUid.values()) {
        drift(`${entry.dn}: not an account of the portal`);
        if (settings.prune) {
          report.removed++;
          if (!dryRun) await c.del(entry.dn);
        } else report.unknown.push(entry.dn);
      }
      // Groups: each group with members holds exactly them; the portal's groups without members go.
      const existingGroups = (await find(c, layout.groups, ['1.1'])) === null ? [] : await listEntries(c, layout.groups, ['cn', 'member', 'description']);
      const byCn = new Map(existingGroups.map((e) => [valuesOf(e, 'cn')[0] ?? '', e]));
      await inParallel([...groups], PARALLEL, async ([group, members]) => {
        const entry = byCn.get(group) ?? null;
        byCn.delete(group);
        const said = await convergeGroup(c, group, members, entry, dryRun);
        if (said === null) return;
        drift(said);
        if (entry === null) report.created++;
        else report.updated++;
      });
      for (const [group, entry] of byCn) {
        const ours = valuesOf(entry, 'description').includes(PORTAL_MARK);
        if (!ours && !settings.prune) {
          drift(`${entry.dn}: not a group of the portal`);
          report.unknown.push(entry.dn);
          continue;
        }
        drift(ours ? `cn=${group}: the portal has no member in it` : `${entry.dn}: not a group of the portal`);
        report.removed++;
        if (!dryRun) await c.del(entry.dn).catch((e) => (e instanceof NoSuchObjectError ? undefined : Promise.reject(e)));
      }
    });
    return report;
  }

  return {
    name: 'ldap',
    kind: 'ldap',
    async apply(object, db) {
      const { kind, key } = objectParts(object);
      if (kind === 'account') await applyAccount(db, Number(key));
      else if (kind === 'group') await applyGroup(db, key);
    },
    reconcile,
    async close() {
      const c = client;
      client = undefined;
      await c?.unbind().catch(() => undefined);
    },
  };
}
