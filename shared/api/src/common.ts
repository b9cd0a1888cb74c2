/** Shapes many endpoints share: the error body (spec section 8), the plain answers, paging. */
import { Type, type Static } from 'typebox';

/** Objects are closed: an unknown field is refused, never silently kept. */
export const closed = { additionalProperties: false } as const;

/** The body of every failed call (spec section 8): the message, the numeric code, and a form's failing fields. */
export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    code: Type.Integer(),
    /** A form's failing fields (flat field name → the spec's message), when the error is about fields. */
    fields: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  closed,
);
export type ErrorBody = Static<typeof ErrorBody>;

/** `{ ok: true, code: 200 }`: the answer of a request that was taken. */
export const OkCode = Type.Object({ ok: Type.Literal(true), code: Type.Literal(200) }, closed);
export type OkCode = Static<typeof OkCode>;

/** `{ ok: true }`. */
export const OkTrue = Type.Object({ ok: Type.Literal(true) }, closed);

/** Spec section 9: the page size of searches and of the request queues. */
export const PAGE_SIZE = 30;
/** The most rows one page may ask for. */
export const MAX_PAGE_SIZE = 100;

/** A page of rows and whether more follow. */
export const Page = <T extends Parameters<typeof Type.Array>[0]>(row: T) =>
  Type.Object({ rows: Type.Array(row), has_more_results: Type.Boolean() }, closed);

export const UsernameParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 255 }) }, closed);
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }, closed);

/** Free text the shared rules check (they give the spec's length messages); bounded only against abuse. */
export const Text = Type.String({ maxLength: 100_000 });
/** An address as typed (the rules check it); bounded only against abuse. */
export const EmailText = Type.String({ maxLength: 1000 });
/** The bot challenge's payload (ALTCHA). */
export const BotChallengeResponse = Type.String({ maxLength: 8192 });

export const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
