/**
 * The API's texts of the visitors' flows (server/docs/self-service.md, "The verification flow"
 * and "The account request"): the error messages, word for word, and the comments written to
 * the update histories.
 */
import { RULE_MESSAGES } from '@portal/api';
import { MESSAGES } from './messages.js';

export const VISITOR_MESSAGES = {
  validEmail: RULE_MESSAGES.validEmail,
  invalidChallenge: MESSAGES.invalidChallenge,
  tooManyCodes: 'Too many verification codes were requested for this address. Please try again in an hour.',
  invalidCode: 'The verification code is invalid or has expired.',
  locked: MESSAGES.locked,
  closed: 'This account is closed.',
  noNewRequest: 'No account request was found for this email address.',
  notAwaitingResponse: 'This request is not waiting for a response.',
  responseRequired: RULE_MESSAGES.responseRequired,
  unlockReason: RULE_MESSAGES.unlockReason,
  unlockUnavailable: 'Unlock request cannot be submitted at this time.',
  notLocked: 'This account is not locked.',
  unlockPending: 'An unlock request for this account is already pending.',
  noWebsiteToken: 'This account does not sign in with a website token.',
  noCertificate: MESSAGES.noCertificate,
  certificateTaken: 'This certificate is already registered to another account.',
  authChangePending: 'An authentication change request is already pending for this account.',
  personalEmail: 'Please use your work email address; personal email addresses are not accepted.',
  usernameTaken: 'This username is already taken.',
  emailInUse: RULE_MESSAGES.emailInUse,
} as const;

export const VISITOR_COMMENTS = {
  requestSubmitted: 'Request submitted.',
  /** The reason sent by the CAC registration when the visitor gives none (spec section 5). */
  reasonOptional: 'Reason optional',
  tokenReset: 'Website token regenerated after email verification.',
  certificateRegistered: 'Smart card registered after email verification.',
} as const;
