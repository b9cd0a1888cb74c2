import { closed, UsernameParams } from '../common.js';
import { defineEndpoint } from '../endpoint.js';
import { SubscriptionsBody } from './subscriptions.js';
import { Type } from 'typebox';

export const setSubscription = defineEndpoint({
  method: 'PUT',
  path: '/subscriptions/:username',
  access: 'session',
  summary: 'Subscribes an account to a service, or ends the subscription',
  params: UsernameParams,
  body: Type.Object({ service: Type.String({ maxLength: 100 }), subscribed: Type.Boolean() }, closed),
  response: SubscriptionsBody,
  errors: [404, 409],
});
