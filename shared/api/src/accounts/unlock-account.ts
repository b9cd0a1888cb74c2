import { UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { AccountComment } from './account-admin.js';
import { Account } from './account.js';

/** POST /accounts/{username}/unlock { comment }: a locked account becomes active (reason optional). */
export const unlockAccount = defineEndpoint({
  method: 'POST',
  path: '/accounts/:username/unlock',
  access: { permission: 'UNLOCK_ACCOUNT' },
  summary: 'Unlocks an account',
  params: UsernameParams,
  body: AccountComment,
  response: Account,
  errors: [404, 409],
});
