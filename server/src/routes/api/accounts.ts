/**
 * An account as its owner and the account administrators see it (server/docs/self-service.md, "Signed in"):
 *   GET  /accounts/{username}   the Account (the owner, or VIEW_ACCOUNT)
 *   POST /accounts/{username}   the profile update (the owner with allow-profilechange, or EDIT_ACCOUNT)
 * Both declare `access: 'session'`: who may act on which account is the service's rule.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../errors.js';
import { getAccount, updateProfile } from '../../services/accounts.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

const closed = { additionalProperties: false } as const;

const DistinguishedName = Type.Object(
  {
    common_name: Type.String(),
    organization: Type.String(),
    organizational_unit: Type.Array(Type.String()),
    country: Type.String(),
  },
  closed,
);

/** The Account of spec section 3, with the pending requests and the groups. */
export const AccountBody = Type.Object(
  {
    username: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    active: Type.Boolean(),
    closed: Type.Boolean(),
    last_authenticated: Type.Union([Type.String(), Type.Null()]),
    authentication: Type.Array(Type.String()),
    phone: Type.String(),
    address: Type.Object(
      { street: Type.String(), city: Type.String(), state: Type.String(), zip: Type.String(), country: Type.String() },
      closed,
    ),
    company: Type.String(),
    project: Type.String(),
    supervisor: Type.Object(
      { first_name: Type.String(), last_name: Type.String(), email: Type.String(), phone: Type.String() },
      closed,
    ),
    reason: Type.String(),
    certificate: Type.Union([
      Type.Object(
        {
          issued_to: DistinguishedName,
          issued_by: DistinguishedName,
          valid_from: Type.Union([Type.String(), Type.Null()]),
          valid_until: Type.Union([Type.String(), Type.Null()]),
          country_of_citizenship: Type.Union([Type.String(), Type.Null()]),
        },
        closed,
      ),
      Type.Null(),
    ]),
    permissions: Type.Array(Type.String()),
    updates: Type.Array(
      Type.Object({ action: Type.String(), comment: Type.String(), created: Type.String(), username: Type.String(), active: Type.Boolean() }, closed),
    ),
    email_change_pending: Type.Boolean(),
    auth_change_pending: Type.Boolean(),
    groups: Type.Array(
      Type.Object(
        {
          user_group: Type.String(),
          name: Type.String(),
          role: Type.Union([Type.Literal('admin'), Type.Literal('team'), Type.Literal('user'), Type.Null()]),
          notification: Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('low'), Type.Literal('none')]),
          special: Type.Array(Type.String()),
        },
        closed,
      ),
    ),
  },
  closed,
);

export const UsernameParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 255 }) }, closed);

/**
 * Every field optional here so that a missing one gets the spec's message ('Please enter a
 * phone number' …) from the shared rules rather than a schema error; the bounds are generous,
 * the rules' own ('Must be less than 255 characters (300/255)') apply below them.
 */
const Field = Type.String({ maxLength: 2000 });
const ProfileBody = Type.Object(
  {
    phone: Type.Optional(Field),
    address: Type.Optional(
      Type.Object(
        {
          street: Type.Optional(Field),
          city: Type.Optional(Field),
          state: Type.Optional(Field),
          zip: Type.Optional(Field),
          country: Type.Optional(Field),
        },
        closed,
      ),
    ),
    company: Type.Optional(Field),
    project: Type.Optional(Field),
    supervisor: Type.Optional(
      Type.Object(
        {
          first_name: Type.Optional(Field),
          last_name: Type.Optional(Field),
          email: Type.Optional(Field),
          phone: Type.Optional(Field),
        },
        closed,
      ),
    ),
    reason: Type.Optional(Type.String({ maxLength: 4000 })),
  },
  closed,
);

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 500: ErrorBody } as const;

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/accounts/:username',
    { config: { access: 'session' }, schema: { params: UsernameParams, response: { 200: AccountBody, ...errors } } },
    async (request) => getAccount(selfServiceContext(app), await signedInAccount(request), request.params.username),
  );

  app.post(
    '/accounts/:username',
    {
      config: { access: 'session' },
      schema: { params: UsernameParams, body: ProfileBody, response: { 200: AccountBody, ...errors } },
    },
    async (request) => updateProfile(selfServiceContext(app), await signedInAccount(request), request.params.username, request.body),
  );
};
