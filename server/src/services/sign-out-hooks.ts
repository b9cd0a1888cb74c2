/**
 * What else ends when an account's sign-ins on the portal end: the services signed in through the
 * portal (the OpenID provider's sessions and grants, services/service-sign-in/oidc/sign-out.ts)
 * listen here, so that the sessions and account administration code tells them without knowing
 * them. A listener is called after the change is committed; its failure is its own (it logs it):
 * the sign-out, lock or closure stands.
 */

/**
 * Why: the portal's sign-out (one browser), Sign Out Everywhere, a lock, a closure; 'ended': the
 * user or an administrator ends sign-ins to services (services/service-sign-in/sign-ins.ts), the
 * portal's own session untouched.
 */
export type SignOutReason = 'sign-out' | 'sign-out-everywhere' | 'locked' | 'closed' | 'ended';

export interface AccountSignOut {
  readonly accountId: number;
  readonly reason: SignOutReason;
  /** 'sign-out': the Cookie header of the browser that signed out (its sign-ins alone end). */
  readonly cookieHeader?: string;
  /** 'ended': only the sign-ins to this OpenID client end (its id); absent: those to every client. */
  readonly clientId?: string;
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

  /**
   * Tells every listener as signedOut does, then fails with the first listener's failure: for an
   * ending asked for by itself ('ended'), whose caller answers whether it happened.
   */
  async ended(signOut: AccountSignOut): Promise<void> {
    let failure: { error: unknown } | undefined;
    for (const listener of this.#listeners) {
      try {
        await listener(signOut);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}
