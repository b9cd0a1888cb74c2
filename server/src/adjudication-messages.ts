/**
 * The API's texts of adjudication and account administration (server/docs/adjudication.md).
 * The forms' messages (comment needed, reason required, search term) are shared/src/rules.ts's.
 */
export const ADJUDICATION_MESSAGES = {
  requestNotFound: 'Request not found.',
  alreadyInStatus: (status: string) => `This request is already ${status}.`,
  notDecidable: (status: string) => `This request is ${status} and can no longer be decided.`,
  ownRequest: 'You cannot decide your own request.',
  usernameTaken: (username: string) => `The username ${username} is already taken.`,
  emailTaken: (email: string) => `The email ${email} is already in use.`,
  certificateTaken: 'This smart card is already registered to another account.',
  ownAccount: 'You cannot lock or close your own account.',
  alreadyLocked: (username: string) => `The account for ${username} is already locked.`,
  notLocked: (username: string) => `The account for ${username} is not locked.`,
  isClosed: (username: string) => `The account for ${username} is closed.`,
  alreadyClosed: (username: string) => `The account for ${username} is already closed.`,
} as const;

/** What an account history entry did (account_updates.action): the 'what' of the CSV export. */
export const ACCOUNT_ACTIONS = {
  created: 'Created',
  locked: 'Locked',
  unlocked: 'Unlocked',
  closed: 'Closed',
  emailChanged: 'Email changed',
  authenticationChanged: 'Authentication changed',
} as const;

/** History comments written by the account administration. */
export const ADJUDICATION_COMMENTS = {
  accountClosed: 'Account closed.',
  createdFromRequest: (id: number) => `Account created from new account request ${id}.`,
} as const;
