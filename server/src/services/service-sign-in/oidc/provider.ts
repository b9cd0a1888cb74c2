/**
 * The portal's OpenID Connect provider (server/docs/service-sign-in.md, "OpenID Connect"), built
 * on oidc-provider: the authorization code flow with PKCE, confidential clients authenticating
 * with client_secret_basic, the scopes openid, profile, email and groups, and their claims in the
 * ID token as well as from userinfo (some services read only the ID token). Everything it keeps
 * is in the database (adapter.ts, keys.ts), so several servers on one database are one provider.
 *
 * Its sign-in is the portal's: the login prompt is asked for whenever the portal session does not
 * name the account the provider's session names (or names none, or one that may not use the
 * client), so a sign-out or a lock on the portal is seen by the next authorization request; the
 * interaction (routes/service-sign-in/oidc.ts) sends the browser to the portal's /login or
 * Subscriptions page, or finishes it with the portal session's account. There is no consent
 * screen for a client added without --consent: its grant is made as the user arrives.
 *
 * Its sign-out (docs, "Signing out"): RP-initiated logout, whose whole sign-out ends the portal
 * session too, and back-channel logout tokens to the clients that registered a URI for them; the
 * portal's own sign-outs end the provider's sessions through sign-out.ts.
 */
import type { IncomingMessage } from 'node:http';
import Provider, { interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../../../db/database.js';
import type { CurrentSession } from '../../sessions.js';
import { accountClaims, boundService, decideOidcSignIn } from './accounts.js';
import { databaseAdapter } from './adapter.js';
import { ensureSigningKeys } from './keys.js';
import { errorPage, logoutNowPage, logoutPage, pagePolicy, signedOutPage } from './pages.js';

/** Where the provider is mounted on the portal; the issuer is the portal's address followed by it. */
export const OIDC_PATH = '/oidc';
/** The portal's own page of an interaction (routes/service-sign-in/oidc.ts). */
export const INTERACTION_PATH = `${OIDC_PATH}/interaction`;

/** The scopes a relying party may ask for, and the claims each releases. */
export const OIDC_CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'preferred_username'],
  email: ['email'],
  groups: ['groups'],
} as const;

/** What a grant allows a client: every scope (each token is still limited to those asked for). */
export const GRANTED_SCOPES = 'openid profile email groups offline_access';

export interface OidcProviderOptions {
  db: Database;
  /** The issuer: the portal's address followed by OIDC_PATH. */
  issuer: string;
  /** A secret shared by every server on the database: the key of the provider's signed cookies. */
  cookieKey: string;
  /** The portal session of a request the route handed to the provider. */
  portalSession(req: IncomingMessage): Promise<CurrentSession | undefined>;
  /** How long the provider's session lasts at most: the portal session's absolute limit. */
  sessionSeconds: number;
  /** The time (the portal's clock), to choose the signing key by. */
  now: Date;
  /**
   * Ends the portal session of a request whose RP-initiated logout the user confirmed (or the
   * id_token_hint named); answers the Set-Cookie headers that clear its cookie.
   */
  endPortalSession(req: IncomingMessage): Promise<string[]>;
  /** The portal's address, for the link of the signed-out page. */
  portalHome: string;
}

function clientService(ctx: KoaContextWithOIDC) {
  return boundService(ctx.oidc.client?.metadata()['portal_service']);
}

function clientWantsConsent(ctx: KoaContextWithOIDC): boolean {
  return ctx.oidc.client?.metadata()['portal_consent'] === true;
}

/**
 * The login prompt, with one more check: the portal session must be signed in to the account the
 * provider's session names, and that account may use the client.
 */
function policyFor(db: Database, portalSession: OidcProviderOptions['portalSession']): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  const login = policy.get('login');
  if (!login) throw new Error("oidc-provider's base policy has no login prompt");
  login.checks.add(
    new interactionPolicy.Check('portal_session', "The portal's sign-in is required", 'login_required', async (ctx) => {
      const decision = await decideOidcSignIn(db, await portalSession(ctx.req), clientService(ctx));
      const same = decision.outcome === 'allowed' && String(decision.accountId) === ctx.oidc.session?.accountId;
      return same ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  return policy;
}

/**
 * Whether an RP-initiated logout's id_token_hint names this browser's provider session: an ID
 * token of its account, for a client it signed in to (and of that sign-in, when the token has a
 * sid). The provider has checked the hint's signature and audience already.
 */
function hintNamesSession(ctx: KoaContextWithOIDC): boolean {
  const hint = ctx.oidc.entities.IdTokenHint?.payload;
  const { session, client } = ctx.oidc;
  if (!hint || !session?.accountId || !client || hint['sub'] !== session.accountId) return false;
  const sid = session.sidFor(client.clientId) as string | undefined;
  return sid !== undefined && (hint['sid'] === undefined || hint['sid'] === sid);
}

/** A provider, the newest key generation it publishes (keys.ts), and when a newer key of those starts signing. */
export interface BuiltOidcProvider {
  provider: Provider;
  generation: number;
  activatesAt?: Date;
}

export async function createOidcProvider(options: OidcProviderOptions): Promise<BuiltOidcProvider> {
  const { db } = options;
  // The signing key first: oidc-provider signs with the first key that fits, and verifies with any.
  const { generation, keys, activatesAt } = await ensureSigningKeys(db, options.now);
  const configuration: Configuration = {
    adapter: databaseAdapter(db),
    clients: [],
    async findAccount(ctx, sub) {
      const id = Number(sub);
      if (!Number.isSafeInteger(id)) return undefined;
      const claims = await accountClaims(db, id, clientService(ctx));
      return claims ? { accountId: sub, claims: () => ({ ...claims }) } : undefined;
    },
    claims: Object.fromEntries(Object.entries(OIDC_CLAIMS).map(([scope, claims]) => [scope, [...claims]])),
    scopes: ['openid', 'offline_access'],
    // The claims of the scopes asked for go into the ID token too (Atlassian's SSO reads only it).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    clientAuthMethods: ['client_secret_basic'],
    responseTypes: ['code'],
    extraClientMetadata: { properties: ['portal_service', 'portal_consent'] },
    jwks: { keys: keys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: [options.cookieKey] },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      // RP-initiated logout ends the portal session too (server/docs/service-sign-in.md, "Signing out").
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          ctx.type = 'html';
          ctx.body = hintNamesSession(ctx) ? logoutNowPage(form) : logoutPage(ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId, form);
        },
        async postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          // A client is named when the user signed out of it only.
          ctx.body = signedOutPage(ctx.oidc.client ? (ctx.oidc.client.clientName ?? ctx.oidc.client.clientId) : undefined, options.portalHome);
        },
      },
      // Logout tokens to the clients that registered a back-channel logout URI (sign-out.ts as well).
      backchannelLogout: { enabled: true },
    },
    interactions: {
      url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}`,
      policy: policyFor(db, options.portalSession),
    },
    async loadExistingGrant(ctx) {
      const { oidc } = ctx;
      const clientId = oidc.client?.clientId;
      if (clientId === undefined || oidc.session === undefined) return undefined;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(clientId);
      const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      if (existing) return existing;
      // A client added without --consent is not asked about: the user's grant is made here (again,
      // when the one the session named was revoked, as a reused code revokes it).
      const accountId = oidc.session.accountId;
      if (accountId === undefined || clientWantsConsent(ctx)) return undefined;
      const grant = new oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope(GRANTED_SCOPES);
      await grant.save();
      return grant;
    },
    // A client registered for refresh tokens gets one with each code (no offline_access needed).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // The protocol's error in a plain page (never the request's parameters: a code may be among them).
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = errorPage(String(out['error'] ?? 'server_error'), String(out['error_description'] ?? ''));
    },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Grant: options.sessionSeconds,
      Session: options.sessionSeconds,
      RefreshToken: options.sessionSeconds,
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.use(async (ctx, next) => {
    await next();
    // Set by oidc-provider's router for its own routes only.
    const { oidc } = ctx as unknown as Partial<KoaContextWithOIDC>;
    const route = oidc?.route;
    const params = oidc?.params;
    // The sign-out pages' policy: their inline scripts, their form, the client's address after it.
    if (route === 'end_session' && ctx.response.is('html')) {
      ctx.set('content-security-policy', pagePolicy(String(ctx.body), typeof params?.['post_logout_redirect_uri'] === 'string' ? params['post_logout_redirect_uri'] : undefined));
    }
    // The whole sign-out (not "of this client only") ends the portal session as well.
    if (route === 'end_session_confirm' && ctx.status === 303 && params?.['logout']) {
      for (const cookie of await options.endPortalSession(ctx.req)) ctx.append('set-cookie', cookie);
    }
  });
  return { provider, generation, ...(activatesAt ? { activatesAt } : {}) };
}
