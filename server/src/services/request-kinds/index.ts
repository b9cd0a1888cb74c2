/**
 * Every request kind, registered: each module of ./kinds registers its kind when it is loaded
 * (registry.ts), and this module loads them all, in the order of their file names. Adding a kind
 * is adding a module there; no list names them.
 *
 * The folder is read when the server runs from source (tsx: the tests, `npm run dev`). The
 * bundle (server/build.mjs) has no folder to read: the build reads it instead and writes one
 * static import per module in place of the lines between the two markers below.
 */
import { readdirSync } from 'node:fs';

/** A kind's module: a TypeScript (or compiled) file of ./kinds named in lowercase and hyphens (server/build.mjs reads the same). */
export const isKindModule = (file: string): boolean => /^[a-z0-9-]+\.(ts|js)$/.test(file);

// request-kinds:begin
const KINDS_DIR = new URL('./kinds/', import.meta.url);
for (const file of readdirSync(KINDS_DIR).filter(isKindModule).sort()) await import(new URL(file, KINDS_DIR).href);
// request-kinds:end

export { registerRequestKind, registeredKinds, requestKind, type DecisionContext, type DecisionEffect, type KindPermissions, type RequestAccess, type RequestKindDefinition, type RequestKindModule } from './registry.js';
