import { UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { SubscriptionsBody } from './subscriptions.js';

export const getSubscriptions = defineEndpoint({
  method: 'GET',
  path: '/subscriptions/:username',
  access: 'session',
  summary: "An account's services: its own and those held through its groups",
  params: UsernameParams,
  response: SubscriptionsBody,
  errors: [404, 409],
});
