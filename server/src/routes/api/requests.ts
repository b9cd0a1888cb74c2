/**
 * The request queues (server/docs/adjudication.md): the summary counts, and for each kind its
 * list, its detail and its decisions, each kind's routes declaring that kind's permission; the
 * denied account request search.
 */
import { Type, type FastifyPluginAsyncTypebox, type TLiteral } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../errors.js';
import {
  adjudicatePermission,
  decideRequest,
  getRequest,
  KIND_RULES,
  listPermission,
  listRequests,
  REQUEST_KINDS,
  requestSummary,
  searchDenied,
  viewPermission,
  type Decision,
  type RequestKind,
} from '../../services/adjudication.js';
import { publicBaseUrl } from './account-requests.js';
import { AccountBody } from './accounts.js';
import { selfServiceContext, signedInAccount } from './signed-in.js';

const closed = { additionalProperties: false } as const;

const SummaryBody = Type.Object(
  {
    total_authchange: Type.Integer(),
    total_profilechange: Type.Integer(),
    total_mailinglist: Type.Integer(),
    total_new: Type.Integer(),
    total_usergroup: Type.Integer(),
    total_unlock: Type.Integer(),
  },
  closed,
);

const Status = Type.Union([Type.Literal('pending'), Type.Literal('incomplete'), Type.Literal('approved'), Type.Literal('denied')]);

const RowProperties = {
  id: Type.Integer(),
  kind: Type.Union(REQUEST_KINDS.map((k) => Type.Literal(k)) as [TLiteral<RequestKind>, ...TLiteral<RequestKind>[]]),
  identifier: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  username: Type.String(),
  status: Status,
  created: Type.String(),
  updated: Type.String(),
};

const ListBody = Type.Object({ rows: Type.Array(Type.Object(RowProperties, closed)), has_more_results: Type.Boolean() }, closed);

/** The kind's own fields vary (spec section 3); the common ones are checked here. */
const DetailBody = Type.Object(
  {
    ...RowProperties,
    reason: Type.String(),
    adjudicator: Type.Union([Type.String(), Type.Null()]),
    submitted_by: Type.Union([Type.String(), Type.Null()]),
    updates: Type.Array(Type.Object({ status: Status, username: Type.String(), created: Type.String(), comment: Type.String() }, closed)),
    account: Type.Union([AccountBody, Type.Null()]),
    decisions: Type.Array(Type.Union([Type.Literal('approved'), Type.Literal('denied'), Type.Literal('incomplete')])),
  },
  { additionalProperties: true },
);

const PageQuery = Type.Object(
  {
    start_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 30 })),
  },
  closed,
);

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }, closed);
const CommentBody = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 4000 })) }, closed);
const DeniedSearchBody = Type.Object(
  {
    term: Type.Optional(Type.String({ maxLength: 255 })),
    start_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  closed,
);

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 500: ErrorBody } as const;

const page = (query: { start_index?: number; max_results?: number }) => ({ startIndex: query.start_index ?? 0, maxResults: query.max_results ?? 30 });

export const requestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/requests',
    { config: { permission: 'VIEW_REQUEST_SUMMARY' }, schema: { response: { 200: SummaryBody, ...errors } } },
    async () => requestSummary(selfServiceContext(app)),
  );

  app.post(
    '/requests/search-denied',
    { config: { permission: 'LIST_NEW_ACCOUNT_REQUESTS' }, schema: { body: DeniedSearchBody, response: { 200: ListBody, ...errors } } },
    async (request) => searchDenied(selfServiceContext(app), request.body.term, page(request.body)),
  );

  const kindRoutes = (kind: RequestKind) => {
    app.get(
      `/requests/${kind}`,
      { config: { permission: listPermission(kind) }, schema: { querystring: PageQuery, response: { 200: ListBody, ...errors } } },
      async (request) => listRequests(selfServiceContext(app), kind, page(request.query)),
    );
    app.get(
      `/requests/${kind}/:id`,
      { config: { permission: viewPermission(kind) }, schema: { params: IdParams, response: { 200: DetailBody, ...errors } } },
      async (request) => getRequest(selfServiceContext(app), await signedInAccount(request), kind, request.params.id),
    );
    for (const decision of KIND_RULES[kind].decisions) {
      app.post(
        `/requests/${kind}/:id/${decision satisfies Decision}`,
        {
          config: { permission: adjudicatePermission(kind) },
          schema: { params: IdParams, body: CommentBody, response: { 200: DetailBody, ...errors } },
        },
        async (request) =>
          decideRequest(selfServiceContext(app), await signedInAccount(request), kind, request.params.id, decision, {
            comment: request.body.comment,
            publicUrl: publicBaseUrl(request, app.security.settings),
          }),
      );
    }
  };
  for (const kind of REQUEST_KINDS) kindRoutes(kind);
};
