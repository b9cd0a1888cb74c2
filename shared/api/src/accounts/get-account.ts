/** GET /accounts/{username}: the Account (the owner, or VIEW_ACCOUNT; who may see which is the service's rule). */
import { UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { Account } from './account.js';

export const getAccount = defineEndpoint({
  method: 'GET',
  path: '/accounts/:username',
  access: 'session',
  summary: "An account: the caller's own, or any with VIEW_ACCOUNT",
  params: UsernameParams,
  response: Account,
  errors: [404],
});
