/**
 * The schema validator every route shares (Fastify's Ajv, through @fastify/ajv-compiler), with two
 * rules of its own:
 *
 * - A path parameter, query or header is text, and Ajv turns it into the number its schema names
 *   (coercion). A JSON body is not: its numbers are numbers, its booleans booleans. Ajv would also
 *   coerce body values ('5', ' 5', 'true', null → 0), so a token's expiry of ' 5' would pass as 5:
 *   the body is validated without coercion.
 * - A number must be finite. Ajv's coercion turns 'Infinity', '-Infinity', '1e309' or '1e400' into
 *   a non-finite number and then skips the range keywords (minimum, maximum) it would have failed
 *   (ajv-validator/ajv#2212, fastify/fastify#6718), so ?start_index=Infinity reached PostgreSQL as
 *   'invalid input syntax for type bigint'. Any non-finite number left in the validated data is
 *   refused as a value of the wrong type: 404 in the path, 400 naming the field in the query or
 *   body (plugins/error-handler.ts), like any other number that does not fit.
 */
import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';
import type { FastifySchemaValidationError } from 'fastify';
import { firstPath } from './text-input.js';

/** Ajv's compiled function, as Fastify calls it (with the parent when it may replace the root value). */
interface CompiledValidator {
  (data: unknown, context?: { parentData: object; parentDataProperty: string }): boolean;
  errors?: FastifySchemaValidationError[] | null;
  schemaEnv?: unknown;
}

/** What Fastify hands the compiler for each part of each route. */
interface RouteDefinition {
  schema: unknown;
  method: string;
  url: string;
  httpPart: 'body' | 'querystring' | 'params' | 'headers';
}

interface CompilerOptions {
  customOptions?: Record<string, unknown>;
}

// @fastify/ajv-compiler's types describe the compiler as Ajv's compile(schema); at run time Fastify
// calls it with the route definition, and gets Ajv's compiled function: typed here as it runs.
type Build = (externalSchemas: Record<string, unknown>, options: CompilerOptions) => (route: RouteDefinition) => CompiledValidator;
const ajvCompiler = (): Build => AjvCompiler() as unknown as Build;

const isNonFinite = (value: unknown): boolean => typeof value === 'number' && !Number.isFinite(value);

/** JSON-pointer segments → Ajv's instancePath. */
const instancePath = (path: readonly string[]) => path.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The compiled validator, refusing a non-finite number wherever validation left one. */
function finiteOnly(validate: CompiledValidator): CompiledValidator {
  const checked: CompiledValidator = (data, context) => {
    if (!validate(data, context)) {
      checked.errors = validate.errors ?? null;
      return false;
    }
    // A coerced root value is written to the parent; an object root is changed in place.
    const value = context ? (context.parentData as Record<string, unknown>)[context.parentDataProperty] : data;
    const path = firstPath(value, isNonFinite);
    if (path === undefined) {
      checked.errors = null;
      return true;
    }
    checked.errors = [{ instancePath: instancePath(path), keyword: 'type', params: { type: 'number' }, schemaPath: '#', message: 'must be a finite number' }];
    return false;
  };
  // Fastify passes the parent (so that a coerced root value is kept) only to a function that has it.
  if (validate.schemaEnv !== undefined) checked.schemaEnv = validate.schemaEnv;
  return checked;
}

const build: Build = (externalSchemas, options) => {
  const text = ajvCompiler()(externalSchemas, options);
  const json = ajvCompiler()(externalSchemas, { ...options, customOptions: { ...options.customOptions, coerceTypes: false } });
  return (route) => finiteOnly((route.httpPart === 'body' ? json : text)(route));
};

/** Fastify's `schemaController.compilersFactory.buildValidator`: Ajv as Fastify sets it up, the body without coercion, every part finite. */
export const buildValidator = build as unknown as ValidatorFactory;
