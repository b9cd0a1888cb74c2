/**
 * V8's settings for the server process, set before any other module of it runs (main.ts imports
 * this first).
 *
 * Allocation-site pretenuring is off. V8 watches where objects are allocated, and a site whose
 * objects outlive a young collection is switched, for good, to allocating in the old generation.
 * The start (migrations, demo data, building the app) switches dozens of sites, the database
 * driver's rows and dates among them, and from then on every request's rows and dates were
 * allocated old and had to wait for a full collection: the portal's old generation grew by about
 * half a megabyte at every young collection. Off, they die young as the bare Fastify reference's
 * do. With the session memo's change (plugins/security.ts), the portal's CPU per session check fell
 * by about 7 % (docs/performance.md, "The session check's ratio").
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
