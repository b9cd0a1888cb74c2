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
 *
 * It cannot be given on the command line of every way the server starts (NODE_OPTIONS refuses V8
 * flags but a few), hence setFlagsFromString. Node's documentation warns that a flag changed after
 * V8 started may do nothing: this one is read by the collector at each collection, and with it the
 * old generation stays flat under load (`--trace-gc`); the bench's session check row is what would
 * tell if a later Node stopped honouring it.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
