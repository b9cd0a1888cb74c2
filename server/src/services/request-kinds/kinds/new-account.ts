/**
 * New account requests (kind 'new', NEW_ACCOUNT): the applicant's own account request. Listed
 * while pending or incomplete; decided from pending, incomplete or denied (a denied request may
 * still be approved); 'incomplete' asks the applicant for more (server/docs/adjudication.md).
 * Approved: the account is created from the request.
 */
import { newAccountRequestKind } from '@portal/api/request-kinds/new-account';
import { ACCOUNT_ACTIONS, ADJUDICATION_COMMENTS, ADJUDICATION_MESSAGES } from '../../../adjudication-messages.js';
import { ConflictError } from '../../../errors.js';
import { accountExists, addAccountRole, addAccountUpdate, insertAccount } from '../../../repositories/accounts.js';
import { bindCertificate, findAccountIdByCertificateIdentity } from '../../../repositories/certificates.js';
import { isUniqueViolation } from '../../../repositories/unique-violation.js';
import { STATUS_CHECK_PATH } from '../../account-requests.js';
import { ACCOUNT_UNIQUE_INDEXES, applicantName, certificateFields, keptCertificate, str, withComment } from '../common.js';
import { registerRequestKind, type RequestKindDefinition } from '../registry.js';

const decide: RequestKindDefinition['decide'] = async (tx, request, decision, { actor, comment, at, publicUrl }) => {
  const name = applicantName(request);
  if (decision === 'incomplete') {
    return {
      mails: [
        {
          to: request.email,
          subject: 'More information is needed for your account request',
          text: [
            `Hello ${name},`,
            '',
            `An adjudicator needs more information before deciding your request for the account '${request.username}':`,
            '',
            comment,
            '',
            'Please answer at the address below (enter this email address, then the code we mail you):',
            `${publicUrl}${STATUS_CHECK_PATH}`,
          ].join('\n'),
        },
      ],
    };
  }
  if (decision === 'denied') {
    return {
      mails: [
        {
          to: request.email,
          subject: 'Your account request was denied',
          text: [`Hello ${name},`, '', `Your request for the account '${request.username}' was denied.`, ...withComment(comment)].join('\n'),
        },
      ],
    };
  }
  const d = request.details as {
    phone?: string;
    address?: Record<string, string>;
    company?: string;
    project?: string;
    supervisor?: Record<string, string>;
    cac_eligible?: boolean;
    certificate?: unknown;
  };
  const certificate = d.cac_eligible === true ? keptCertificate(d.certificate) : undefined;
  const taken = await accountExists(tx, { username: request.username, email: request.email });
  if (taken.username) throw new ConflictError(ADJUDICATION_MESSAGES.usernameTaken(request.username));
  if (taken.email) throw new ConflictError(ADJUDICATION_MESSAGES.emailTaken(request.email));
  if (certificate && (await findAccountIdByCertificateIdentity(tx, certificate.identity)) !== undefined) {
    throw new ConflictError(ADJUDICATION_MESSAGES.certificateTaken);
  }
  const accountId = await insertAccount(tx, {
    username: request.username,
    email: request.email,
    first_name: request.firstName,
    last_name: request.lastName,
    phone: str(d.phone),
    street: str(d.address?.street),
    city: str(d.address?.city),
    state: str(d.address?.state),
    zip: str(d.address?.zip),
    country: str(d.address?.country),
    company: str(d.company),
    project: str(d.project),
    supervisor_first_name: str(d.supervisor?.first_name),
    supervisor_last_name: str(d.supervisor?.last_name),
    supervisor_email: str(d.supervisor?.email),
    supervisor_phone: str(d.supervisor?.phone),
    reason: request.reason,
    active: true,
    closed: false,
    authentication: certificate ? ['certificate'] : ['token'],
    last_certified: at,
  });
  await addAccountRole(tx, accountId, 'user');
  if (certificate) await bindCertificate(tx, accountId, certificate);
  await addAccountUpdate(tx, {
    accountId,
    action: ACCOUNT_ACTIONS.created,
    comment: ADJUDICATION_COMMENTS.createdFromRequest(request.id),
    username: actor.username,
    active: true,
    at,
  });
  const howToSignIn = certificate
    ? [`Sign in with your smart card: open ${publicUrl}/login, choose Returning Users, then CAC Users, and press CAC LOGIN.`]
    : [
        'Before you sign in, generate your website token:',
        `  1. Open ${publicUrl}/reset-website-token`,
        `  2. Enter this email address (${request.email}) and the verification code we then mail you.`,
        '  3. Press Generate, and store the token securely: it is shown once.',
        `Then sign in at ${publicUrl}/login (Returning Users, Non-CAC Users) with your username '${request.username}' and the token.`,
      ];
  return {
    mails: [
      {
        to: request.email,
        subject: 'Your account request was approved',
        text: [`Hello ${name},`, '', `Your account '${request.username}' was approved.`, '', ...howToSignIn, ...withComment(comment)].join('\n'),
      },
    ],
  };
};

registerRequestKind(newAccountRequestKind, {
  open: ['pending', 'incomplete'],
  decidableFrom: ['pending', 'incomplete', 'denied'],
  identifier: (request) => request.username,
  detailFields: ({ details }) => ({
    first_name: str(details.first_name),
    last_name: str(details.last_name),
    phone: str(details.phone),
    address: details.address ?? {},
    company: str(details.company),
    project: str(details.project),
    supervisor: details.supervisor ?? {},
    cac_eligible: details.cac_eligible === true,
    certificate: certificateFields(details.certificate),
  }),
  decide,
  // Two approvals racing for one username, email or card (different requests): the unique indexes decide.
  raceConflict: (error, request) => {
    if (isUniqueViolation(error, ACCOUNT_UNIQUE_INDEXES.username)) return new ConflictError(ADJUDICATION_MESSAGES.usernameTaken(request.username));
    if (isUniqueViolation(error, ACCOUNT_UNIQUE_INDEXES.email)) return new ConflictError(ADJUDICATION_MESSAGES.emailTaken(request.email));
    if (isUniqueViolation(error, ACCOUNT_UNIQUE_INDEXES.certificate)) return new ConflictError(ADJUDICATION_MESSAGES.certificateTaken);
    return undefined;
  },
});
