/**
 * Demo data for a development database: one account per platform role, a locked one and a
 * closed one. Runs only on a database without accounts, so it never touches real data.
 */
import type { Database } from './db/database.js';
import {
  addAccountRole,
  addAccountUpdate,
  countAccounts,
  insertAccount,
  type NewAccount,
  type PlatformRole,
} from './repositories/accounts.js';

export type DemoState = 'active' | 'locked' | 'closed';

export interface DemoAccount {
  username: string;
  role: PlatformRole;
  state: DemoState;
}

interface DemoPerson extends DemoAccount {
  first_name: string;
  last_name: string;
}

const PEOPLE: readonly DemoPerson[] = [
  { username: 'admin', role: 'site-admin', state: 'active', first_name: 'Ada', last_name: 'Admin' },
  { username: 'adjudicator', role: 'adjudicator', state: 'active', first_name: 'Jude', last_name: 'Adjudicator' },
  { username: 'helpdesk', role: 'help-desk', state: 'active', first_name: 'Hal', last_name: 'Helpdesk' },
  { username: 'user', role: 'user', state: 'active', first_name: 'Uma', last_name: 'User' },
  { username: 'locked.user', role: 'user', state: 'locked', first_name: 'Lou', last_name: 'Locked' },
  { username: 'closed.user', role: 'user', state: 'closed', first_name: 'Cleo', last_name: 'Closed' },
];

export const DEMO_LOCK_COMMENT = 'Locked for the demo: too many failed sign-in attempts.';

function demoAccount(person: DemoPerson): NewAccount {
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
    active: person.state !== 'locked',
    closed: person.state === 'closed',
    authentication: ['token'],
    last_certified: new Date(),
  };
}

/** Creates the demo accounts unless the database holds any account; returns those it created. */
export async function seedDemoData(db: Database): Promise<DemoAccount[]> {
  return db.transaction(async (tx) => {
    // Two servers starting at once on one database: the second waits, then sees the accounts.
    await tx.exec('lock table accounts in share row exclusive mode');
    if ((await countAccounts(tx)) > 0) return [];
    for (const person of PEOPLE) {
      const id = await insertAccount(tx, demoAccount(person));
      await addAccountRole(tx, id, person.role);
      if (person.state === 'locked') {
        await addAccountUpdate(tx, { accountId: id, comment: DEMO_LOCK_COMMENT, username: 'admin', active: false });
      }
    }
    return PEOPLE.map(({ username, role, state }) => ({ username, role, state }));
  });
}
