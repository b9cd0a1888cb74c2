/** An account and its subscriptions as Account Administration shows them (definitions in @portal/api). */
import * as api from '@portal/api';
import type { Account, Subscriptions } from '@portal/api';
import { call } from '@portal/shared';

type Options = { readonly signal?: AbortSignal };

export function getAccount(username: string, options: Options = {}): Promise<Account> {
  return call(api.getAccount, { params: { username } }, options);
}

export function getSubscriptions(username: string, options: Options = {}): Promise<Subscriptions> {
  return call(api.getSubscriptions, { params: { username } }, options);
}
