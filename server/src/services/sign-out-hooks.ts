/**
 * What else ends when an account's sign-ins on the portal end: the services signed in through the
 * portal (the OpenID provider's sessions and grants, services/service-sign-in/oidc/sign-out.ts)
 * listen here, so that the sessions and account administration code tells them without knowing
 * them. A listener is called after the change is committed; its failure is its own (it logs it):
 * the sign-out, lock or closure stands.
 */

/** Why: the portal's sign-out (one browser), Sign Out Everywhere, a lock, a closure. */
export type SignOutReason = 'sign-out' | 'sign-out-everywhere' | 'locked' | 'closed';

export interface AccountSignOut {
  readonly accountId: number;
  readonly reason: SignOutReason;
  /** 'sign-out': the Cookie header of the browser that signed out (its sign-ins alone end). */
  readonly cookieHeader?: string;
}

export type SignOutListener = (signOut: AccountSignOut) => Promise<void>;

export class SignOutHooks {
  readonly #listeners = new Set<SignOutListener>();

  /** Adds a listener; answers the function that removes it. */
  listen(listener: SignOutListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener, one after the other; resolves when all are done. */
  async signedOut(signOut: AccountSignOut): Promise<void> {
    for (const listener of this.#listeners) {
      try {
        await listener(signOut);
      } catch {
        // A listener logs its own failures; the others are still told.
      }
    }
  }
}
