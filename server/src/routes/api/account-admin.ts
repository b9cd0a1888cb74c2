/**
 * The account administration (server/docs/adjudication.md, "Accounts"):
 *   POST /accounts/search                 { term, starts_with?, start_index?, max_results?, group_id? } a page of accounts (SEARCH_ACCOUNTS)
 *   POST /accounts/{username}/lock        { comment } the Account after the lock (LOCK_ACCOUNT)
 *   POST /accounts/{username}/unlock      { comment } the Account after the unlock (UNLOCK_ACCOUNT)
 *   POST /requests/close                  { username, reason } the Account after the closure (SUBMIT_SURROGATE_REQUEST)
 *   GET  /accounts/{username}/history.csv the account's history as CSV (VIEW_ACCOUNT)
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../errors.js';
import {
  accountHistoryCsv,
  closeAccount,
  lockAccount,
  MAX_SEARCH_RESULTS,
  searchAccounts,
  unlockAccount,
} from '../../services/account-admin.js';
import { AccountBody, UsernameParams } from './accounts.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

const closed = { additionalProperties: false } as const;

const SearchBody = Type.Object(
  {
    // Optional so that a missing term gets the search's own message rather than a schema error.
    term: Type.Optional(Type.String({ maxLength: 255 })),
    starts_with: Type.Optional(Type.Boolean()),
    start_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_RESULTS })),
    group_id: Type.Optional(Type.String({ maxLength: 255 })),
  },
  closed,
);

const SearchAnswer = Type.Object(
  {
    rows: Type.Array(
      Type.Object(
        {
          username: Type.String(),
          first_name: Type.String(),
          last_name: Type.String(),
          email: Type.String(),
          active: Type.Boolean(),
          closed: Type.Boolean(),
        },
        closed,
      ),
    ),
    has_more_results: Type.Boolean(),
  },
  closed,
);

// Optional (and generous) so that a missing or over-long reason gets the rules' messages
// ('Please enter a reason', 'Must be less than 150 characters (n/150)') with its field.
const CommentBody = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 2000 })) }, closed);
const CloseBody = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 255 }), reason: Type.Optional(Type.String({ maxLength: 2000 })) },
  closed,
);

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 500: ErrorBody } as const;

export const accountAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/accounts/search',
    { config: { permission: 'SEARCH_ACCOUNTS' }, schema: { body: SearchBody, response: { 200: SearchAnswer, ...errors } } },
    async (request) =>
      searchAccounts(selfServiceContext(app), {
        term: request.body.term,
        startsWith: request.body.starts_with,
        startIndex: request.body.start_index,
        maxResults: request.body.max_results,
        groupId: request.body.group_id,
      }),
  );

  app.post(
    '/accounts/:username/lock',
    { config: { permission: 'LOCK_ACCOUNT' }, schema: { params: UsernameParams, body: CommentBody, response: { 200: AccountBody, ...errors } } },
    async (request) => lockAccount(selfServiceContext(app), await signedInAccount(request), request.params.username, request.body),
  );

  app.post(
    '/accounts/:username/unlock',
    { config: { permission: 'UNLOCK_ACCOUNT' }, schema: { params: UsernameParams, body: CommentBody, response: { 200: AccountBody, ...errors } } },
    async (request) => unlockAccount(selfServiceContext(app), await signedInAccount(request), request.params.username, request.body),
  );

  app.post(
    '/requests/close',
    { config: { permission: 'SUBMIT_SURROGATE_REQUEST' }, schema: { body: CloseBody, response: { 200: AccountBody, ...errors } } },
    async (request) => closeAccount(selfServiceContext(app), await signedInAccount(request), request.body),
  );

  // The 200 schema documents the body: a string sent with its own content type is not serialized.
  // Opened by a plain link, so that the browser saves the file: no anti-forgery header. It is a
  // read that changes nothing, and another site cannot read the answer (same-origin policy).
  app.get(
    '/accounts/:username/history.csv',
    { config: { permission: 'VIEW_ACCOUNT', xsrf: false }, schema: { params: UsernameParams, response: { 200: Type.String(), ...errors } } },
    async (request, reply) => {
      const { fileName, csv } = await accountHistoryCsv(selfServiceContext(app), request.params.username);
      reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`);
      return csv;
    },
  );
};
