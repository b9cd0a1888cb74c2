import { UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { AccountComment } from './account-admin.js';
import { Account } from './account.js';

/** POST /accounts/{username}/lock { comment }: an active account becomes locked (reason required). */
export const lockAccount = defineEndpoint({
  method: 'POST',
  path: '/accounts/:username/lock',
  access: { permission: 'LOCK_ACCOUNT' },
  summary: 'Locks an account; its sessions end',
  params: UsernameParams,
  body: AccountComment,
  response: Account,
  errors: [404, 409],
});
