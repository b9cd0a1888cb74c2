/**
 * The account administration (server/docs/adjudication.md, "Accounts"): the account search,
 * lock, unlock and close (locking or closing also revokes the account's tokens), and the history export. Each change of state is one transaction: the
 * account row is locked (`for update`) and its state checked again, so of two concurrent changes
 * the second sees the first's result (and gets its 409); then the state, the history entry (what,
 * why, who, when), the sessions, the requests the change decides, and the owner's mail through
 * the outbox.
 */
import { contactAddress, type Account, type AccountSearch, type AccountSearchPage } from '@portal/api';
import { LIMITS, lengthAtMost, RULE_MESSAGES, validateFields } from '@portal/api';
import { composeValidators, required, type Validator } from '@portal/api';
import { ACCOUNT_ACTIONS, ADJUDICATION_COMMENTS, ADJUDICATION_MESSAGES } from '../adjudication-messages.js';
import type { Queryable } from '../db/database.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../errors.js';
import { findAccountHistory, searchAccounts as findAccounts, type HistoryEntry } from '../repositories/account-admin.js';
import { findAccountByUsername, findAccountRecordById } from '../repositories/account-view.js';
import { addAccountUpdate, closeAccountRow, findAccountForUpdate, lockAccountRow, type LockedAccount } from '../repositories/accounts.js';
import { decidePendingRequests } from '../repositories/requests.js';
import { deleteAccountSessions } from '../repositories/sessions.js';
import { SELF_SERVICE_MESSAGES } from '../self-service-messages.js';
import { isOwner, type Actor, type SelfServiceContext } from './account-access.js';
import { accountView } from './accounts.js';
import { enqueueMail } from './mail.js';
import { unlockAccount as unlockAccountState } from './sign-in.js';
import { revokeTokensOfAccount } from './tokens/tokens.js';

// ---------------------------------------------------------------------------------------------
// Search

/** Spec section 9: a page of 30; at most 100 a page. */
export const SEARCH_PAGE_SIZE = 30;
export const MAX_SEARCH_RESULTS = 100;
/** Words of a term beyond these are ignored. */
export const MAX_SEARCH_WORDS = 4;

const SEARCH_RULES = { term: required(RULE_MESSAGES.searchTermRequired) };

/** The words of a term: split on white space after trimming, the first MAX_SEARCH_WORDS. */
export function searchWords(term: string): string[] {
  return term.trim().split(/\s+/).filter((word) => word !== '').slice(0, MAX_SEARCH_WORDS);
}

/**
 * POST /accounts/search (SEARCH_ACCOUNTS), as @portal/api's AccountSearch asks it; what is
 * missing gets its default. Every word of the term must match the start (`starts_with` true,
 * also when it is absent: the screen's choice) or any part (false) of the username, first name,
 * last name or email, in any letter case; `%`, `_` and `\` match themselves. An empty term:
 * invalid (field term). A blank `group_id` is no filter; an unknown group matches nobody.
 */
export async function searchAccounts(context: SelfServiceContext, search: AccountSearch): Promise<AccountSearchPage> {
  const errors = validateFields(SEARCH_RULES, { term: search.term });
  if (Object.keys(errors).length > 0) throw InvalidInputError.ofFields(errors);
  const groupId = search.group_id?.trim();
  const { rows, hasMore } = await findAccounts(context.db, {
    words: searchWords(search.term ?? ''),
    startsWith: search.starts_with ?? true,
    startIndex: search.start_index ?? 0,
    maxResults: search.max_results ?? SEARCH_PAGE_SIZE,
    groupId: groupId === undefined || groupId === '' ? undefined : groupId,
  });
  return { rows, has_more_results: hasMore };
}

// ---------------------------------------------------------------------------------------------
// Lock, unlock, close

/** Spec section 5: lock and close reasons are required, unlock reasons optional; 150 at most. */
const requiredReason = composeValidators(required(RULE_MESSAGES.reasonRequired), lengthAtMost(LIMITS.reason));
const optionalReason = lengthAtMost(LIMITS.reason);

/** The reason of a change, trimmed; 400 with the field's message when the rule refuses it. */
function checkedReason(field: 'comment' | 'reason', value: string | undefined, rule: Validator): string {
  const message = rule(value);
  if (message) throw InvalidInputError.ofFields({ [field]: message });
  return (value ?? '').trim();
}

/** Nobody locks or closes their own account. */
function refuseOwn(actor: Actor, username: string): void {
  if (isOwner(actor, username)) throw new ForbiddenError(ADJUDICATION_MESSAGES.ownAccount);
}

/**
 * Runs a change of state in one transaction on the account's row, locked: 404 when there is no
 * such account; `change` checks the state (409) and changes it. Answers the Account afterwards.
 */
async function changeAccount(
  context: SelfServiceContext,
  username: string,
  change: (tx: Queryable, account: LockedAccount, at: Date) => Promise<void>,
): Promise<Account> {
  // The change of the account's row is recorded for provisioning (migration 0016): a locked or
  // closed account leaves the directory's groups and the mailing lists' rosters from there.
  return context.db.transaction(async (tx) => {
    const account = await findAccountForUpdate(tx, username);
    if (!account) throw new NotFoundError(SELF_SERVICE_MESSAGES.accountNotFound);
    await change(tx, account, context.clock.now());
    const record = await findAccountRecordById(tx, account.id);
    if (!record) throw new NotFoundError(SELF_SERVICE_MESSAGES.accountNotFound);
    return accountView(tx, record);
  });
}

function contactLine(context: SelfServiceContext): string {
  return `If you have a question about this, contact ${contactAddress(context.config)}.`;
}

/**
 * POST /accounts/{username}/lock { comment } (LOCK_ACCOUNT): an active account becomes
 * inactive; its sessions end at once; the history records 'Locked' with the reason; the owner is
 * mailed. Own account: 403; reason required, at most 150 (400, field comment); already locked or
 * closed: 409, nothing changed.
 */
export async function lockAccount(context: SelfServiceContext, actor: Actor, username: string, body: { comment?: string }): Promise<Account> {
  refuseOwn(actor, username);
  const reason = checkedReason('comment', body.comment, requiredReason);
  let lockedId: number | undefined;
  const view = await changeAccount(context, username, async (tx, account, at) => {
    lockedId = account.id;
    if (account.closed) throw new ConflictError(ADJUDICATION_MESSAGES.isClosed(account.username));
    if (!account.active || !(await lockAccountRow(tx, account.id))) throw new ConflictError(ADJUDICATION_MESSAGES.alreadyLocked(account.username));
    await deleteAccountSessions(tx, account.id);
    await addAccountUpdate(tx, { accountId: account.id, action: ACCOUNT_ACTIONS.locked, comment: reason, username: actor.username, active: false, at });
    await revokeTokensOfAccount(tx, account, 'locked', actor.username, at);
    await enqueueMail(
      tx,
      {
        to: account.email,
        subject: 'Your account was locked',
        text: [
          `The account ${account.username} was locked by an account administrator.`,
          `Reason: ${reason}`,
          '',
          'You cannot sign in until it is unlocked. You may ask for that on the Request Unlock page.',
          contactLine(context),
          '',
        ].join('\n'),
      },
      context.clock,
    );
  });
  // Committed: its sign-ins to the platform's services end too (services/sign-out-hooks.ts).
  if (lockedId !== undefined) await context.signOuts?.signedOut({ accountId: lockedId, reason: 'locked' });
  return view;
}

/**
 * POST /accounts/{username}/unlock { comment } (UNLOCK_ACCOUNT): a locked account becomes
 * active again with its failed sign-in count reset; a pending unlock request of the account is
 * approved with the same comment (the caller its adjudicator); the history records 'Unlocked';
 * the owner is mailed. Reason optional, at most 150 (400, field comment); not locked, or
 * closed: 409, nothing changed.
 */
export async function unlockAccount(context: SelfServiceContext, actor: Actor, username: string, body: { comment?: string }): Promise<Account> {
  const reason = checkedReason('comment', body.comment, optionalReason);
  return changeAccount(context, username, async (tx, account, at) => {
    if (account.closed) throw new ConflictError(ADJUDICATION_MESSAGES.isClosed(account.username));
    const unlocked =
      !account.active &&
      (await unlockAccountState(tx, account.id, { action: ACCOUNT_ACTIONS.unlocked, comment: reason, username: actor.username, at }));
    if (!unlocked) throw new ConflictError(ADJUDICATION_MESSAGES.notLocked(account.username));
    const approved = await decidePendingRequests(tx, {
      accountId: account.id,
      kind: 'unlock',
      status: 'approved',
      adjudicator: actor.username,
      comment: reason,
      at,
    });
    await enqueueMail(
      tx,
      {
        to: account.email,
        subject: 'Your account was unlocked',
        text: [
          `The account ${account.username} was unlocked by an account administrator${approved.length > 0 ? ', approving your unlock request' : ''}.`,
          ...(reason === '' ? [] : [`Comment: ${reason}`]),
          '',
          'You can sign in again.',
          contactLine(context),
          '',
        ].join('\n'),
      },
      context.clock,
    );
  });
}

/**
 * POST /requests/close { username, reason } (SUBMIT_SURROGATE_REQUEST): an account in any state
 * but closed becomes closed and inactive; its sessions end; every pending request about it is
 * denied with an update 'Account closed.' (the caller its adjudicator); the history records
 * 'Closed' with the reason; the owner is mailed. Own account: 403; reason required, at most 150
 * (400, field reason); closed already: 409, nothing changed.
 */
export async function closeAccount(context: SelfServiceContext, actor: Actor, body: { username: string; reason?: string }): Promise<Account> {
  refuseOwn(actor, body.username);
  const reason = checkedReason('reason', body.reason, requiredReason);
  let closedId: number | undefined;
  const view = await changeAccount(context, body.username, async (tx, account, at) => {
    closedId = account.id;
    if (account.closed || !(await closeAccountRow(tx, account.id))) throw new ConflictError(ADJUDICATION_MESSAGES.alreadyClosed(account.username));
    await deleteAccountSessions(tx, account.id);
    await revokeTokensOfAccount(tx, account, 'closed', actor.username, at);
    const denied = await decidePendingRequests(tx, {
      accountId: account.id,
      status: 'denied',
      adjudicator: actor.username,
      comment: ADJUDICATION_COMMENTS.accountClosed,
      at,
    });
    await addAccountUpdate(tx, { accountId: account.id, action: ACCOUNT_ACTIONS.closed, comment: reason, username: actor.username, active: false, at });
    await enqueueMail(
      tx,
      {
        to: account.email,
        subject: 'Your account was closed',
        text: [
          `The account ${account.username} was closed by an account administrator.`,
          `Reason: ${reason}`,
          ...(denied.length > 0 ? [`Its pending requests (${denied.length}) were denied.`] : []),
          '',
          'You can no longer sign in with it.',
          contactLine(context),
          '',
        ].join('\n'),
      },
      context.clock,
    );
  });
  // Committed: its sign-ins to the platform's services end too (services/sign-out-hooks.ts).
  if (closedId !== undefined) await context.signOuts?.signedOut({ accountId: closedId, reason: 'closed' });
  return view;
}

// ---------------------------------------------------------------------------------------------
// History export

export const HISTORY_CSV_HEADER = ['who', 'when', 'what', 'why'] as const;

/** A cell a spreadsheet would run as a formula (or that a leading tab or CR would hide): these first characters. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell: a leading `'` when it starts like a formula (=, +, -, @, tab, CR), then quoted
 * (RFC 4180: in double quotes, a double quote doubled) when it holds a comma, a double quote, a
 * CR or a LF.
 */
export function csvCell(value: string): string {
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** RFC 4180 text: every record (the header first) on a line ending in CRLF. */
export function toCsv(records: readonly (readonly string[])[]): string {
  return records.map((cells) => `${cells.map(csvCell).join(',')}\r\n`).join('');
}

/**
 * The history as CSV, oldest first: who (the history's username), when (ISO 8601), what (the
 * action) and why (the comment). An entry without an action (written before there were
 * actions, or by a change whose comment says what it did) has its comment as what and '' as why.
 */
export function historyCsv(entries: readonly HistoryEntry[]): string {
  return toCsv([
    HISTORY_CSV_HEADER,
    ...entries.map((e) => (e.action === '' ? [e.username, e.created.toISOString(), e.comment, ''] : [e.username, e.created.toISOString(), e.action, e.comment])),
  ]);
}

/** The name of the export: '{username}-history.csv', any character but letters, digits, '.', '-' and '_' made '_'. */
export function historyFileName(username: string): string {
  return `${username.replace(/[^A-Za-z0-9._-]/g, '_')}-history.csv`;
}

/** GET /accounts/{username}/history.csv (VIEW_ACCOUNT): the file's name and text; 404 for an unknown account. */
export async function accountHistoryCsv(context: SelfServiceContext, username: string): Promise<{ fileName: string; csv: string }> {
  const account = await findAccountByUsername(context.db, username);
  if (!account) throw new NotFoundError(SELF_SERVICE_MESSAGES.accountNotFound);
  return { fileName: historyFileName(account.username), csv: historyCsv(await findAccountHistory(context.db, account.id)) };
}
