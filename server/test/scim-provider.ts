/**
 * A SCIM 2.0 service provider for the provisioning tests, on loopback: no SCIM service (Artifactory,
 * SonarQube Enterprise, GitLab) can run here from a package, so the tests run one built on scimmy
 * (resources, filters, PATCH, list responses) and scimmy-routers (the RFC 7644 endpoints, on
 * express). Its Users and Groups are kept in memory, one store per tenant
 * (`/<tenant>/scim/v2`), so that each database's tests have a service of their own. It checks the
 * bearer token (and, as some services do, repeats a wrong one in its refusal), refuses a second
 * User with the same userName or Group with the same displayName, and a member that is no User.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import SCIMMY from 'scimmy';
import SCIMMYRouters from 'scimmy-routers';

export interface StoredUser {
  id: string;
  userName: string;
  externalId?: string;
  name?: { givenName?: string; familyName?: string };
  displayName?: string;
  emails?: { value: string; type?: string; primary?: boolean }[];
  active?: boolean;
}

export interface StoredGroup {
  id: string;
  displayName: string;
  externalId?: string;
  members: { value: string; display?: string }[];
}

export interface Store {
  users: StoredUser[];
  groups: StoredGroup[];
}

export interface ScimProvider {
  readonly token: string;
  /** The base address of a tenant's service. */
  url(tenant: string): string;
  /** A tenant's Users and Groups, to read and to change by hand (drift). */
  store(tenant: string): Store;
  /** The Authorization header of every request received. */
  readonly authorizations: string[];
  /** Stops answering (connections refused); start() serves the same store again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

interface Context {
  store: Store;
  /** A filter `attribute eq "…"` whose value holds a JSON escape, matched here (scimmy's parser ends a string at its first `\"`). */
  exact?: { attribute: string; value: string };
}

const contexts = new WeakMap<Request, Context>();

const notFound = (id: string | undefined) => new SCIMMY.Types.Error(404, '', `Resource ${id} not found`);

/** The resources of `list` the request asks for: one by id, or those its filter matches. */
function select<T extends { id: string }>(resource: { id?: string; filter?: { match(values: object[]): object[] } }, list: T[], context: Context): T[] {
  let found: T[] = list;
  if (context.exact !== undefined) {
    const { attribute, value } = context.exact;
    found = list.filter((item) => (item as unknown as Record<string, unknown>)[attribute] === value);
  } else if (resource.filter !== undefined) {
    found = resource.filter.match(list) as T[];
  }
  if (resource.id !== undefined && found.length === 0) throw notFound(resource.id);
  return structuredClone(found);
}

export async function startScimProvider(token = 'scim-test-token-5f2c9a'): Promise<ScimProvider> {
  const stores = new Map<string, Store>();
  const storeOf = (tenant: string): Store => {
    let store = stores.get(tenant);
    if (store === undefined) {
      store = { users: [], groups: [] };
      stores.set(tenant, store);
    }
    return store;
  };
  const authorizations: string[] = [];
  const contextOf = (request: Request): Context => contexts.get(request) ?? { store: storeOf('') };

  SCIMMY.Resources.declare(SCIMMY.Resources.User, {
    egress: (resource: SCIMMY.Resources.User, context: Context) => {
      const users = select(resource, context.store.users, context);
      // The groups a User is in: read-only, kept by the service (RFC 7643 §4.1.2).
      return users.map((user) => ({
        ...user,
        groups: context.store.groups.filter((g) => g.members.some((m) => m.value === user.id)).map((g) => ({ value: g.id, display: g.displayName })),
      }));
    },
    ingress: (resource: SCIMMY.Resources.User, instance: SCIMMY.Schemas.User, context: Context) => {
      const data = JSON.parse(JSON.stringify(instance)) as Omit<StoredUser, 'id'> & { schemas?: unknown; meta?: unknown };
      delete data.schemas;
      delete data.meta;
      const users = context.store.users;
      if (users.some((u) => u.userName.toLowerCase() === data.userName.toLowerCase() && u.id !== resource.id)) {
        throw new SCIMMY.Types.Error(409, 'uniqueness', `A User with userName ${data.userName} exists already`);
      }
      if (resource.id === undefined) {
        const user = { id: randomUUID(), ...data };
        users.push(user);
        return structuredClone(user);
      }
      const index = users.findIndex((u) => u.id === resource.id);
      if (index < 0) throw notFound(resource.id);
      users[index] = { id: resource.id, ...data };
      return structuredClone(users[index]);
    },
    degress: (resource: SCIMMY.Resources.User, context: Context) => {
      const { store } = context;
      if (!store.users.some((u) => u.id === resource.id)) throw notFound(resource.id);
      store.users = store.users.filter((u) => u.id !== resource.id);
      for (const group of store.groups) group.members = group.members.filter((m) => m.value !== resource.id);
    },
  });

  SCIMMY.Resources.declare(SCIMMY.Resources.Group, {
    egress: (resource: SCIMMY.Resources.Group, context: Context) => select(resource, context.store.groups, context),
    ingress: (resource: SCIMMY.Resources.Group, instance: SCIMMY.Schemas.Group, context: Context) => {
      const data = JSON.parse(JSON.stringify(instance)) as { displayName: string; externalId?: string; members?: { value: string }[] };
      const { store } = context;
      if (store.groups.some((g) => g.displayName === data.displayName && g.id !== resource.id)) {
        throw new SCIMMY.Types.Error(409, 'uniqueness', `A Group with displayName ${data.displayName} exists already`);
      }
      const members: StoredGroup['members'] = [];
      for (const { value } of data.members ?? []) {
        const user = store.users.find((u) => u.id === value);
        if (user === undefined) throw new SCIMMY.Types.Error(400, 'invalidValue', `No User has the id ${value}`);
        if (!members.some((m) => m.value === value)) members.push({ value, display: user.userName });
      }
      const group: StoredGroup = { id: resource.id ?? randomUUID(), displayName: data.displayName, ...(data.externalId === undefined ? {} : { externalId: data.externalId }), members };
      const index = store.groups.findIndex((g) => g.id === resource.id);
      if (resource.id !== undefined && index < 0) throw notFound(resource.id);
      if (index < 0) store.groups.push(group);
      else store.groups[index] = group;
      return structuredClone(group);
    },
    degress: (resource: SCIMMY.Resources.Group, context: Context) => {
      const { store } = context;
      if (!store.groups.some((g) => g.id === resource.id)) throw notFound(resource.id);
      store.groups = store.groups.filter((g) => g.id !== resource.id);
    },
  });

  const app = express();
  app.use('/:tenant/scim/v2', (request: Request, _response: Response, next: NextFunction) => {
    const context: Context = { store: storeOf(String(request.params.tenant)) };
    const filter = request.query.filter;
    const escaped = typeof filter === 'string' ? /^\s*([A-Za-z][\w.]*)\s+eq\s+("(?:[^"\\]|\\.)*")\s*$/.exec(filter) : null;
    if (escaped !== null && escaped[2]?.includes('\\')) {
      context.exact = { attribute: escaped[1] as string, value: JSON.parse(escaped[2]) as string };
      delete request.query.filter;
    }
    contexts.set(request, context);
    next();
  });
  app.use(
    '/:tenant/scim/v2',
    new SCIMMYRouters({
      type: 'bearer',
      handler: (request) => {
        const given = request.header('authorization') ?? '';
        authorizations.push(given);
        if (given !== `Bearer ${token}`) throw new Error(`The bearer token ${given.replace(/^Bearer /, '')} is not valid here`);
        return 'portal';
      },
      context: contextOf,
    }) as unknown as express.Router,
  );

  let server: Server | undefined;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const listening = app.listen(port, '127.0.0.1', () => {
        port = (listening.address() as AddressInfo).port;
        resolve();
      });
      listening.once('error', reject);
      server = listening;
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const running = server;
      server = undefined;
      if (running === undefined) return resolve();
      running.close(() => resolve());
      running.closeAllConnections();
    });
  await start();
  return {
    token,
    url: (tenant) => `http://127.0.0.1:${port}/${tenant}/scim/v2`,
    store: storeOf,
    authorizations,
    stop,
    start,
    close: stop,
  };
}
