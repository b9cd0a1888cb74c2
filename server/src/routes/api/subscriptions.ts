/**
 * Service subscriptions (server/docs/self-service.md, "Signed in"):
 *   GET /subscriptions/{username}   { direct, nested } (the owner with VIEW_SUBSCRIPTIONS, or VIEW_ACCOUNT)
 *   PUT /subscriptions/{username}   { service, subscribed } → { direct, nested } (the owner with EDIT_SUBSCRIPTIONS, or EDIT_ACCOUNT)
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../errors.js';
import { getSubscriptions, setSubscription } from '../../services/subscriptions.js';
import { UsernameParams } from './accounts.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

const SubscriptionsBody = Type.Object(
  { direct: Type.Array(Type.String()), nested: Type.Array(Type.String()) },
  { additionalProperties: false },
);
const SubscriptionChange = Type.Object(
  { service: Type.String({ maxLength: 100 }), subscribed: Type.Boolean() },
  { additionalProperties: false },
);

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 500: ErrorBody } as const;

export const subscriptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/subscriptions/:username',
    { config: { access: 'session' }, schema: { params: UsernameParams, response: { 200: SubscriptionsBody, ...errors } } },
    async (request) => getSubscriptions(selfServiceContext(app), await signedInAccount(request), request.params.username),
  );

  app.put(
    '/subscriptions/:username',
    {
      config: { access: 'session' },
      schema: { params: UsernameParams, body: SubscriptionChange, response: { 200: SubscriptionsBody, ...errors } },
    },
    async (request) => setSubscription(selfServiceContext(app), await signedInAccount(request), request.params.username, request.body),
  );
};
