/**
 * A NUL character (U+0000) in any string a request carries — its path parameters, query, or body
 * (keys included) — is refused before validation: PostgreSQL and PGlite cannot store it in text
 * ("invalid byte sequence for encoding UTF8: 0x00"), so it reached callers as a 500 from whichever
 * query first met it. It is told as a schema failure is (plugins/error-handler.ts): in the path,
 * 404 as for any path that names nothing; in the query or body, 400 'This value is not valid.'
 * naming the field. No text field of the portal has a use for it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unencapsulated } from './unencapsulated.js';

type Context = 'params' | 'querystring' | 'body';

interface Node {
  value: unknown;
  key: string;
  parent: Node | undefined;
}

function pathOf(node: Node | undefined): string[] {
  const path: string[] = [];
  for (let at = node; at?.parent !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The path (JSON-pointer segments) of the first value `isBad` finds, or of the object holding the
 * first key `isBadKey` finds; undefined when there is none. Iterative, and each value visited
 * once: any depth, in time linear in the data.
 */
export function firstPath(data: unknown, isBad: (value: unknown) => boolean, isBadKey: (key: string) => boolean = () => false): string[] | undefined {
  const stack: Node[] = [{ value: data, key: '', parent: undefined }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const { value } = node;
    if (isBad(value)) return pathOf(node);
    if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (isBadKey(key)) return pathOf(node);
        stack.push({ value: child, key, parent: node });
      }
    }
  }
  return undefined;
}

const hasNul = (text: string) => text.includes('\u0000');

/** The path (JSON-pointer segments) of the first string or key holding a NUL, or undefined. */
export function nulPath(data: unknown): string[] | undefined {
  return firstPath(data, (value) => typeof value === 'string' && hasNul(value), hasNul);
}

/** The error Fastify's validation would throw, for the error handler to answer. */
function nulError(context: Context, path: readonly string[]): Error {
  const instancePath = path.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  return Object.assign(new Error(`${context}${instancePath} contains a NUL character`), {
    statusCode: 400,
    validationContext: context,
    validation: [{ instancePath, keyword: 'nul', params: {}, schemaPath: '#', message: 'contains a NUL character' }],
  });
}

/** The first NUL in the request's input, as the error Fastify's validation would give; undefined when there is none. */
function textInputError(request: Pick<FastifyRequest, 'params' | 'query' | 'body'>): Error | undefined {
  const parts: [Context, unknown][] = [
    ['params', request.params],
    ['querystring', request.query],
    ['body', request.body],
  ];
  for (const [context, data] of parts) {
    const path = nulPath(data);
    if (path !== undefined) return nulError(context, path);
  }
  return undefined;
}

export const textInputPlugin = unencapsulated(async function textInput(app: FastifyInstance) {
  // A synchronous hook: an async one costs every call a promise and a turn of the microtask queue.
  app.addHook('preValidation', (request, _reply, done) => done(textInputError(request)));
}, 'text-input');
