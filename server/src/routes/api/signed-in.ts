/** What the signed-in self-service routes share: the caller and the services' context. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotSignedInError } from '../../errors.js';
import { MESSAGES } from '../../messages.js';
import type { SelfServiceContext } from '../../services/account-access.js';
import type { SignedInAccount } from '../../services/sessions.js';

/** The signed-in caller (the route's guard has let only signed-in sessions through). */
export async function signedInAccount(request: FastifyRequest): Promise<SignedInAccount> {
  const session = await request.portalSession();
  if (!session?.account) throw new NotSignedInError(MESSAGES.notSignedIn);
  return session.account;
}

export function selfServiceContext(app: FastifyInstance): SelfServiceContext {
  return { db: app.db, clock: app.security.clock, config: app.portalConfig, listEngine: app.listEngine, signOuts: app.security.signOuts };
}
