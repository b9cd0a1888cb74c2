/**
 * Authentication change requests (kind 'authchange', AUTH_CHANGE; only with cac_support, which
 * the routes enforce): details.authentication is ['token'] (from smart card to website token) or
 * ['certificate'] (to the card kept in details.certificate). Approved: the change, the account's
 * sessions ended; mail either way.
 */
import { authChangeRequestKind } from '@portal/api/request-kinds/auth-change';
import { ACCOUNT_ACTIONS, ADJUDICATION_MESSAGES } from '../../../adjudication-messages.js';
import { ConflictError } from '../../../errors.js';
import { addAccountUpdate, setAccountAuthentication, setWebsiteTokenHash } from '../../../repositories/accounts.js';
import { bindCertificate, findAccountIdByCertificateIdentity, removeCertificates } from '../../../repositories/certificates.js';
import { deleteAccountSessions } from '../../../repositories/sessions.js';
import { isUniqueViolation } from '../../../repositories/unique-violation.js';
import { ACCOUNT_UNIQUE_INDEXES, accountOf, certificateFields, keptCertificate, PENDING_QUEUE, str, withComment } from '../common.js';
import { registerRequestKind, type RequestKindDefinition } from '../registry.js';

const decide: RequestKindDefinition['decide'] = async (tx, request, decision, { actor, comment, at, publicUrl }) => {
  const account = await accountOf(tx, request);
  if (decision !== 'approved') {
    return {
      mails: [
        {
          to: account.email,
          subject: 'Your authentication change request was denied',
          text: [`The request to change how the account '${account.username}' signs in was denied.`, ...withComment(comment)].join('\n'),
        },
      ],
    };
  }
  const toCertificate = Array.isArray(request.details.authentication) && request.details.authentication.includes('certificate');
  let howToSignIn: string;
  if (toCertificate) {
    const certificate = keptCertificate(request.details.certificate);
    if (!certificate) throw new ConflictError(ADJUDICATION_MESSAGES.certificateTaken);
    const boundTo = await findAccountIdByCertificateIdentity(tx, certificate.identity);
    if (boundTo !== undefined && boundTo !== account.id) throw new ConflictError(ADJUDICATION_MESSAGES.certificateTaken);
    if (boundTo === undefined) await bindCertificate(tx, account.id, certificate);
    await setAccountAuthentication(tx, account.id, ['certificate']);
    await setWebsiteTokenHash(tx, account.id, null);
    howToSignIn = `Sign in with your smart card from now on: ${publicUrl}/login, Returning Users, CAC Users. Your website token no longer works.`;
  } else {
    await removeCertificates(tx, account.id);
    await setAccountAuthentication(tx, account.id, ['token']);
    howToSignIn = `Generate your website token at ${publicUrl}/reset-website-token, then sign in with your username and the token. Your smart card no longer signs in.`;
  }
  await deleteAccountSessions(tx, account.id);
  await addAccountUpdate(tx, {
    accountId: account.id,
    action: ACCOUNT_ACTIONS.authenticationChanged,
    comment: `${toCertificate ? 'Smart card' : 'Website token'}${comment === '' ? '' : `: ${comment}`}`,
    username: actor.username,
    active: account.active,
    at,
  });
  return {
    mails: [
      {
        to: account.email,
        subject: 'Your authentication change request was approved',
        text: [`The request to change how the account '${account.username}' signs in was approved.`, howToSignIn, ...withComment(comment)].join('\n'),
      },
    ],
  };
};

registerRequestKind(authChangeRequestKind, {
  ...PENDING_QUEUE,
  identifier: ({ details }) => (Array.isArray(details.authentication) ? details.authentication.filter((a) => typeof a === 'string').join(', ') : ''),
  detailFields: ({ details }) => ({
    authentication: Array.isArray(details.authentication) ? details.authentication : [],
    certificate: certificateFields(details.certificate),
    sponsor_email: str(details.sponsor_email),
  }),
  decide,
  // Two approvals racing for one card (different accounts): the unique index decides.
  raceConflict: (error) => (isUniqueViolation(error, ACCOUNT_UNIQUE_INDEXES.certificate) ? new ConflictError(ADJUDICATION_MESSAGES.certificateTaken) : undefined),
});
