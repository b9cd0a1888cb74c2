/**
 * The provider's storage (oidc-provider's adapter interface) on the portal's database, so that
 * every server on one database sees the same sessions, interactions, grants, codes and tokens.
 * Clients are not stored by the provider: they are read from the clients the administrators
 * registered (clients.ts).
 */
import type { Adapter, AdapterConstructor, AdapterPayload } from 'oidc-provider';
import type { Queryable } from '../../../db/database.js';
import {
  consumeOidcModel,
  destroyOidcModel,
  findOidcClient,
  findOidcModel,
  findOidcModelBy,
  revokeOidcGrant,
  upsertOidcModel,
} from '../../../repositories/service-sign-in/oidc.js';
import { clientMetadata } from './clients.js';

export function databaseAdapter(db: Queryable): AdapterConstructor {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      // The provider counts in its own (real) time, as it does the expiry inside each payload.
      const expiresAt = expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000);
      await upsertOidcModel(db, this.model, id, { ...payload }, expiresAt);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') {
        const client = await findOidcClient(db, id);
        return client ? clientMetadata(client) : undefined;
      }
      return (await findOidcModel(db, this.model, id, new Date())) as AdapterPayload | undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return (await findOidcModelBy(db, this.model, 'uid', uid, new Date())) as AdapterPayload | undefined;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return (await findOidcModelBy(db, this.model, 'user_code', userCode, new Date())) as AdapterPayload | undefined;
    }

    async consume(id: string): Promise<void> {
      await consumeOidcModel(db, this.model, id, new Date());
    }

    async destroy(id: string): Promise<void> {
      await destroyOidcModel(db, this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeOidcGrant(db, grantId);
    }
  };
}
