/**
 * Demo data for a development database: one account per platform role, a locked one, a closed
 * one and one that must renew (last certified 400 days ago), each with a website token and a full
 * profile; `admin` also signs in with a smart card whose CN ends in the identity number
 * 1234567890, and `user` subscribes to a few services itself; three user groups (DEMO_GROUPS) with
 * members, additional permission groups, a nesting and pending membership requests. Runs only on a
 * database without accounts, so it never touches real data. The tokens are kept in <dataDir>/demo-accounts.json (mode 0600, demo mode
 * only) so that every start in demo mode can print how to sign in.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './db/database.js';
import {
  addAccountRole,
  addAccountUpdate,
  countAccounts,
  insertAccount,
  setWebsiteTokenHash,
  type NewAccount,
  type PlatformRole,
} from './repositories/accounts.js';
import { bindCertificate } from './repositories/certificates.js';
import { addMembership, addNesting, insertPermissionGroup, insertUserGroup, type NewUserGroup } from './repositories/groups.js';
import { insertRequest, insertRequestUpdate } from './repositories/requests.js';
import { addSubscription } from './repositories/subscriptions.js';
import { generateWebsiteToken, hashWebsiteToken } from './services/tokens.js';
import { insertToken } from './repositories/tokens.js';
import { insertHeldMessage, insertMailingList } from './repositories/mailing-lists.js';
import { EMBEDDED_TOKEN_PREFIX, newSecret, secretHash } from './services/tokens/issuer.js';

export type DemoState = 'active' | 'locked' | 'closed';

export interface DemoAccount {
  username: string;
  role: PlatformRole;
  state: DemoState;
  /** The website token (demo data only: real tokens are never stored or shown again). */
  token: string;
}

interface DemoPerson extends Omit<DemoAccount, 'token'> {
  first_name: string;
  last_name: string;
  /** Days since the account last certified (default 0: today); over 365 it must renew at sign-in. */
  certifiedDaysAgo?: number;
}

const PEOPLE: readonly DemoPerson[] = [
  { username: 'admin', role: 'site-admin', state: 'active', first_name: 'Ada', last_name: 'Admin' },
  { username: 'adjudicator', role: 'adjudicator', state: 'active', first_name: 'Jude', last_name: 'Adjudicator' },
  { username: 'helpdesk', role: 'help-desk', state: 'active', first_name: 'Hal', last_name: 'Helpdesk' },
  { username: 'user', role: 'user', state: 'active', first_name: 'Uma', last_name: 'User' },
  { username: 'locked.user', role: 'user', state: 'locked', first_name: 'Lou', last_name: 'Locked' },
  { username: 'closed.user', role: 'user', state: 'closed', first_name: 'Cleo', last_name: 'Closed' },
  { username: 'renewal.user', role: 'user', state: 'active', first_name: 'Rene', last_name: 'Renewal', certifiedDaysAgo: 400 },
];

/** The demo account that must renew (annual certification) when it signs in. */
export const DEMO_RENEWAL_USERNAME = 'renewal.user';

/** Services the demo `user` subscribes to itself (jira it also holds through PORTAL). */
export const DEMO_DIRECT_SUBSCRIPTIONS: Readonly<Record<string, readonly string[]>> = { user: ['jira', 'jsm'] };

/** A pending membership request of the demo data, as POST /requests/membership/new stores one. */
export interface DemoMembershipRequest {
  username: string;
  join: readonly string[];
  reason: string;
  /** Days since it was sent (the group's queue lists the oldest first). */
  daysAgo: number;
}

export interface DemoGroup extends NewUserGroup {
  /** Direct memberships: [account, group name]. */
  members: readonly [username: string, groupName: string][];
  /** Additional (special) permission groups. */
  permissionGroups?: readonly string[];
  /** Nestings: every member of `memberGroup` (of any user group) holds `groupName` (of this one) too. */
  nestings?: readonly [groupName: string, memberGroup: string][];
  /** Membership requests waiting for the group's admins. */
  pendingRequests?: readonly DemoMembershipRequest[];
  /** How to try it, printed at every start in demo mode. */
  tryIt: string;
}

/**
 * A few user groups with the demo accounts as members (spec sections 3 and 6), between them one
 * of each kind a screen can show: members in every role (PORTAL: admin, team, user, and a user
 * through a nested group), pending membership requests and more than 6 additional permission
 * groups (PORTAL), an open-access group (DEVOPS), a hidden DoD group (SECURE). `admin` is the
 * only admin of PORTAL (the end-to-end tests administer it as admin).
 */
export const DEMO_GROUPS: readonly DemoGroup[] = [
  {
    id: 'PORTAL',
    name: 'Portal Team',
    description: 'Builds and runs the account portal.',
    open_access: false,
    visibility: 'site-approved',
    member_constraint: 'None',
    services: ['artifacts', 'bitbucket', 'jira', 'confluence'],
    members: [
      ['admin', 'PORTAL-admin'],
      ['admin', 'PORTAL-notification-high'],
      ['admin', 'PORTAL-artifactsAdmin'],
      ['user', 'PORTAL-user'],
      ['user', 'PORTAL-notification-low'],
      ['user', 'PORTAL-release'],
      ['user', 'PORTAL-artifactsWrite'],
      ['adjudicator', 'PORTAL-team'],
      ['adjudicator', 'PORTAL-audit'],
      ['adjudicator', 'PORTAL-artifactsRead'],
    ],
    permissionGroups: ['PORTAL-release', 'PORTAL-deploy', 'PORTAL-security', 'PORTAL-docs', 'PORTAL-oncall', 'PORTAL-design', 'PORTAL-audit'],
    // helpdesk (DEVOPS-team) is a PORTAL user through DEVOPS.
    nestings: [['PORTAL-user', 'DEVOPS-team']],
    pendingRequests: [
      {
        username: 'renewal.user',
        join: ['PORTAL-user', 'PORTAL-notification-medium'],
        reason: 'I test the portal releases and need Jira and Confluence.',
        daysAgo: 2,
      },
      {
        username: 'helpdesk',
        join: ['PORTAL-team', 'PORTAL-oncall'],
        reason: 'I answer the portal support tickets and need to see its members.',
        daysAgo: 1,
      },
    ],
    tryIt:
      'admin is its only admin; /group-administration/PORTAL lists members in every role (adjudicator team, user user, helpdesk user ' +
      'through DEVOPS-team), 2 pending membership requests to decide and 7 additional permission groups (show more). ' +
      'Artifact rights: admin Admin, user Write, adjudicator Read: each can create tokens at /tokens/artifactory (helpdesk cannot). ' +
      'Mailing lists at /mailing-lists: portal-dev (opt-out, 2 posts held for admin, its moderator) and portal-announce (opt-in).',
  },
  {
    id: 'DEVOPS',
    name: 'DevOps Community',
    description: 'Open to everyone working on build and deployment.',
    open_access: true,
    visibility: 'site-approved',
    member_constraint: 'None',
    services: ['jenkins', 'sonarqube'],
    members: [
      ['helpdesk', 'DEVOPS-team'],
      ['user', 'DEVOPS-user'],
    ],
    tryIt: 'open access; adjudicator joins as a user at once at /request-membership/DEVOPS, while asking for team waits for a decision at /group-administration/DEVOPS (admin).',
  },
  {
    id: 'SECURE',
    name: 'Secure Enclave',
    description: 'Members must authenticate with DoD PKI.',
    open_access: false,
    visibility: 'SECURE-admin',
    member_constraint: 'DoD',
    services: ['repository'],
    members: [['admin', 'SECURE-admin']],
    tryIt: 'hidden, DoD PKI only; admin (its admin, with a smart card) sees it, while for user or helpdesk /group-administration/SECURE is not found.',
  },
];

/** The demo's mailing lists, in PORTAL (their address: the name at the configured email domain). */
export const DEMO_LISTS: readonly {
  name: string;
  description: string;
  permissionGroup: string;
  posting: 'closed' | 'open' | 'announce';
  optOut: boolean;
  held?: readonly { sender: string; subject: string; text: string }[];
}[] = [
  {
    name: 'portal-dev',
    description: 'Portal developers: discussion',
    permissionGroup: 'PORTAL-user',
    posting: 'closed',
    optOut: true,
    held: [
      { sender: 'vendor@elsewhere.example', subject: 'Partnership offer', text: 'Dear team,\n\nWe would like to offer our services.\n\nBest regards' },
      {
        sender: 'newcomer@elsewhere.example',
        subject: 'Question about the build',
        text: [
          'Hello,',
          '',
          'I am new to the project and tried the build on my machine. It stops with:',
          '',
          '  Error: Cannot find module "@portal/api"',
          '',
          'I ran npm start from the repository root as the README says.',
          'Node is 20.20, npm 11. What am I missing?',
          '',
          '<b>This line has markup, shown as text.</b>',
          '',
          'Thanks!',
        ].join('\n'),
      },
    ],
  },
  { name: 'portal-announce', description: 'Portal release announcements', permissionGroup: 'PORTAL-user', posting: 'announce', optOut: false },
];

/** The demo's expired token of `user`. */
export const DEMO_EXPIRED_TOKEN = { description: 'Old release upload', issuedDaysAgo: 40, lifetimeDays: 30 } as const;

export const DEMO_LOCK_COMMENT = 'Locked for the demo: too many failed sign-in attempts.';

/** The smart-card identity of the demo `admin` (a test certificate with CN DOE.JOHN.QUINCY.1234567890). */
export const DEMO_ADMIN_CERTIFICATE_IDENTITY = '1234567890';
/** The demo card's subject and issuer, as node's X509Certificate prints them (what a sign-in with the card records). */
export const DEMO_ADMIN_CERTIFICATE = {
  subject: 'C=US\nO=U.S. Government\nOU=DoD\nOU=PKI\nOU=CONTRACTOR\nCN=DOE.JOHN.QUINCY.1234567890',
  issuer: 'C=US\nO=U.S. Government\nOU=DoD\nOU=PKI\nCN=DOD ID CA-59',
} as const;
const DAY_MS = 86_400_000;
export const DEMO_ACCOUNTS_FILE = 'demo-accounts.json';

function demoAccount(person: DemoPerson, now: Date): NewAccount {
  return {
    username: person.username,
    email: `${person.username}@example.test`,
    first_name: person.first_name,
    last_name: person.last_name,
    phone: '555-0100',
    street: '1 Demo Street',
    city: 'Springfield',
    state: 'VA',
    zip: '22150',
    country: 'USA',
    company: 'Example Corp',
    project: 'Portal demo',
    supervisor_first_name: 'Sam',
    supervisor_last_name: 'Supervisor',
    supervisor_email: 'supervisor@example.test',
    supervisor_phone: '555-0199',
    reason: 'Demo account',
    // Only an active account is active: a closed one is inactive too (migration 0009 refuses closed and active).
    active: person.state === 'active',
    closed: person.state === 'closed',
    authentication: person.username === 'admin' ? ['token', 'certificate'] : ['token'],
    last_certified: new Date(now.getTime() - (person.certifiedDaysAgo ?? 0) * DAY_MS),
  };
}

/** Creates the demo accounts unless the database holds any account; returns those it created. */
export async function seedDemoData(db: Database, options: { emailDomain?: string } = {}): Promise<DemoAccount[]> {
  const domain = (options.emailDomain ?? 'example.test').toLowerCase();
  // Hashed before the transaction: Argon2 takes tens of milliseconds a token.
  const tokens = PEOPLE.map(() => generateWebsiteToken());
  const hashes = await Promise.all(tokens.map((token) => hashWebsiteToken(token)));
  return db.transaction(async (tx) => {
    // Two servers starting at once on one database: the second waits, then sees the accounts.
    await tx.exec('lock table accounts in share row exclusive mode');
    if ((await countAccounts(tx)) > 0) return [];
    const created: DemoAccount[] = [];
    const ids = new Map<string, number>();
    const now = new Date();
    for (const [i, person] of PEOPLE.entries()) {
      const id = await insertAccount(tx, demoAccount(person, now));
      ids.set(person.username, id);
      await addAccountRole(tx, id, person.role);
      await setWebsiteTokenHash(tx, id, hashes[i] ?? null);
      if (person.state === 'locked') {
        await addAccountUpdate(tx, { accountId: id, comment: DEMO_LOCK_COMMENT, username: 'admin', active: false });
      }
      if (person.username === 'admin') {
        await bindCertificate(tx, id, {
          identity: DEMO_ADMIN_CERTIFICATE_IDENTITY,
          fingerprint: null,
          subject: DEMO_ADMIN_CERTIFICATE.subject,
          issuer: DEMO_ADMIN_CERTIFICATE.issuer,
          validFrom: new Date(now.getTime() - 30 * DAY_MS),
          validUntil: new Date(now.getTime() + 3 * 365 * DAY_MS),
        });
      }
      for (const service of DEMO_DIRECT_SUBSCRIPTIONS[person.username] ?? []) await addSubscription(tx, id, service, now);
      created.push({ username: person.username, role: person.role, state: person.state, token: tokens[i] ?? '' });
    }
    const idOf = (groupId: string, username: string): number => {
      const accountId = ids.get(username);
      if (accountId === undefined) throw new Error(`demo group ${groupId}: no demo account ${username}`);
      return accountId;
    };
    for (const group of DEMO_GROUPS) {
      const { id, name, description, open_access, visibility, member_constraint, services } = group;
      await insertUserGroup(tx, { id, name, description, open_access, visibility, member_constraint, services });
      for (const permissionGroup of group.permissionGroups ?? []) await insertPermissionGroup(tx, id, permissionGroup, now);
      for (const [username, groupName] of group.members) await addMembership(tx, id, idOf(id, username), groupName, now);
    }
    // Nestings and requests once every group exists (a nesting may name another group's name).
    for (const { id, nestings = [], pendingRequests = [] } of DEMO_GROUPS) {
      for (const [groupName, memberGroup] of nestings) await addNesting(tx, id, groupName, memberGroup);
      for (const request of pendingRequests) {
        // What submitMembership (services/memberships.ts) writes for a request that waits for a group admin.
        const at = new Date(now.getTime() - request.daysAgo * DAY_MS);
        const requestId = await insertRequest(tx, {
          kind: 'membership',
          status: 'pending',
          accountId: idOf(id, request.username),
          username: request.username,
          email: `${request.username}@example.test`,
          reason: request.reason,
          details: { user_group: id, join: [...request.join], leave: [], updateIntent: 'request' },
          submittedBy: null,
          createdAt: at,
        });
        await insertRequestUpdate(tx, { requestId, status: 'pending', username: request.username, comment: request.reason, createdAt: at });
      }
    }
    // user's token that has expired (its secret was never kept): the token list shows it EXPIRED.
    const issuedAt = new Date(now.getTime() - DEMO_EXPIRED_TOKEN.issuedDaysAgo * DAY_MS);
    await insertToken(tx, {
      id: randomUUID(),
      accountId: idOf('PORTAL', 'user'),
      description: DEMO_EXPIRED_TOKEN.description,
      scopes: ['PORTAL-artifactsRead'],
      issuer: 'embedded',
      secretHash: secretHash(newSecret(EMBEDDED_TOKEN_PREFIX)),
      issuedAt,
      expiresAt: new Date(issuedAt.getTime() + DEMO_EXPIRED_TOKEN.lifetimeDays * DAY_MS),
      revocable: true,
    });
    // Two lists in PORTAL for its users (admin, the group's admin, moderates both), and two posts held.
    for (const list of DEMO_LISTS) {
      const listId = `${list.name}@${domain}`;
      await insertMailingList(tx, {
        id: listId,
        userGroupId: 'PORTAL',
        description: list.description,
        permissionGroup: list.permissionGroup,
        postingPermissions: list.posting,
        automaticSubscription: list.optOut,
        createdAt: now,
        requestId: null,
      });
      for (const [i, held] of (list.held ?? []).entries()) {
        const raw = Buffer.from(`From: ${held.sender}\r\nTo: ${listId}\r\nSubject: ${held.subject}\r\n\r\n${held.text.replace(/\n/g, '\r\n')}\r\n`);
        await insertHeldMessage(tx, {
          listId,
          sender: held.sender,
          subject: held.subject,
          text: held.text,
          raw,
          reason: 'Post by a non-subscriber to a list that only subscribers may post to.',
          heldAt: new Date(now.getTime() - (2 - i) * 3_600_000),
        });
      }
    }
    return created;
  });
}

/** Writes the demo accounts with their tokens to <dataDir>/demo-accounts.json, readable by the owner only. */
export function writeDemoAccountsFile(dataDir: string, accounts: readonly DemoAccount[]): void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, DEMO_ACCOUNTS_FILE);
  writeFileSync(file, `${JSON.stringify(accounts, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // mode applies only when the file is created
}

/** The demo accounts of an earlier start, or [] when there is no (readable, well-formed) file. */
export function readDemoAccountsFile(dataDir: string): DemoAccount[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dataDir, DEMO_ACCOUNTS_FILE), 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (a): a is DemoAccount =>
      typeof a === 'object' && a !== null && typeof a.username === 'string' && typeof a.role === 'string' &&
      typeof a.state === 'string' && typeof a.token === 'string',
  );
}

/** How to sign in as each demo account: username, role, state and website token. */
export function demoSignInText(accounts: readonly DemoAccount[], loginUrl: string): string {
  if (accounts.length === 0) return '';
  const width = Math.max(...accounts.map((a) => a.username.length));
  const roleWidth = Math.max(...accounts.map((a) => describe(a).length));
  const groupWidth = Math.max(...DEMO_GROUPS.map((g) => g.id.length));
  const lines = accounts.map((a) => `  ${a.username.padEnd(width)}  ${describe(a).padEnd(roleWidth)}  ${a.token}`);
  return [
    `Demo accounts (sign in at ${loginUrl} with the username and website token; demo data, never for production):`,
    ...lines,
    `  admin also signs in with a smart card whose CN ends in .${DEMO_ADMIN_CERTIFICATE_IDENTITY} (e.g. DOE.JOHN.QUINCY.${DEMO_ADMIN_CERTIFICATE_IDENTITY}).`,
    ...(accounts.some((a) => a.username === DEMO_RENEWAL_USERNAME)
      ? [`  ${DEMO_RENEWAL_USERNAME} last certified 400 days ago: it must renew (annual certification) after signing in.`]
      : []),
    'Demo groups (listed at /groups):',
    ...DEMO_GROUPS.map((g) => `  ${g.id.padEnd(groupWidth)}  ${g.name}: ${g.tryIt}`),
    '',
  ].join('\n');
}

function describe(account: DemoAccount): string {
  return `${account.role}${account.state === 'active' ? '' : ` (${account.state})`}`;
}
