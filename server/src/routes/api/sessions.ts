/**
 * Sessions and sign-in (spec section 7, "Sessions and login"):
 *   GET  /xsrf                 the caller's anti-forgery token (starts an anonymous session if needed)
 *   GET  /sessions/httpsession starts an anonymous session if needed
 *   GET  /sessions/current     the signed-in user and permissions
 *   GET  /sessions/logout      ends the session
 *   POST /sessions/end-all     ends every session of the caller's account (sign out everywhere)
 *   POST /sessions             website-token sign-in (with the bot challenge)
 *   POST /cert/sessions        smart-card sign-in (client certificate)
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import * as api from '@portal/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError, LockedError, NotFoundError, NotSignedInError } from '../../errors.js';
import { MESSAGES } from '../../messages.js';
import { clientCertificate, endCurrentSession, ensureSession, startSession } from '../../plugins/security.js';
import { certificateDetails, isCurrentlyValid } from '../../services/certificates.js';
import { acceptBotChallengeResponse } from '../../services/challenge.js';
import { endAccountSessions, xsrfTokenOf } from '../../services/sessions.js';
import { signInWithCertificate, signInWithToken } from '../../services/sign-in.js';
import { endpointRoute } from './endpoint-route.js';

/** Signs the account in: a new session (the old one deleted), answered with the session's user and permissions. */
async function signedIn(request: FastifyRequest, reply: FastifyReply, accountId: number): Promise<{ username: string; permissions: string[] }> {
  const session = await startSession(request, reply, accountId);
  if (!session.account) throw new Error('a session just signed in has no account');
  return { username: session.account.username, permissions: session.account.permissions };
}

export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...endpointRoute(api.getXsrfToken),
    handler: async (request, reply) => {
      const session = await ensureSession(request, reply);
      return { ok: await xsrfTokenOf(app.security, session.id) };
    },
  });

  app.route({
    ...endpointRoute(api.startHttpSession),
    handler: async (request, reply) => {
      await ensureSession(request, reply);
      return { ok: true as const };
    },
  });

  app.route({
    // Answers while the account must renew too: the host learns from it to send the user to /renew-account.
    ...endpointRoute(api.getCurrentSession, { duringRenewal: true }),
    handler: async (request) => {
      const session = await request.portalSession();
      if (!session?.account) throw new NotSignedInError(MESSAGES.notSignedIn);
      return { username: session.account.username, permissions: session.account.permissions };
    },
  });

  app.route({
    ...endpointRoute(api.signOut),
    handler: async (request, reply) => {
      await endCurrentSession(request, reply);
      return { ok: true as const };
    },
  });

  app.route({
    ...endpointRoute(api.signOutEverywhere),
    handler: async (request, reply) => {
      const session = await request.portalSession();
      if (!session?.account) throw new NotSignedInError(MESSAGES.notSignedIn);
      const ended = await endAccountSessions(app.security, session.account.id);
      await endCurrentSession(request, reply);
      return { ok: true as const, ended };
    },
  });

  app.route({
    ...endpointRoute(api.signInWithToken),
    handler: async (request, reply) => {
      const { id, token, botChallengeResponse } = request.body;
      if (!(await acceptBotChallengeResponse(app.security, botChallengeResponse))) {
        throw new InvalidInputError(MESSAGES.invalidChallenge);
      }
      const result = await signInWithToken(app.security, id, token);
      if (!result.ok) throw result.failure === 'locked' ? new LockedError(MESSAGES.locked) : new NotSignedInError(MESSAGES.invalidCredentials);
      return signedIn(request, reply, result.account.id);
    },
  });

  app.route({
    ...endpointRoute(api.signInWithCertificate),
    handler: async (request, reply) => {
      const certificate = clientCertificate(request, app.security.settings);
      if (!certificate || !isCurrentlyValid(certificate, app.security.clock.now())) throw new InvalidInputError(MESSAGES.noCertificate);
      const result = await signInWithCertificate(app.security, certificateDetails(certificate));
      if (!result.ok) throw result.failure === 'unknown' ? new NotFoundError(MESSAGES.unknownCertificate) : new NotSignedInError(MESSAGES.certificateAccountUnusable);
      return signedIn(request, reply, result.account.id);
    },
  });
};
