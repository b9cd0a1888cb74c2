/** The API's error texts of the signed-in self-service (server/docs/self-service.md, "Signed in" and "Renewal"). */
export const SELF_SERVICE_MESSAGES = {
  accountNotFound: 'Account not found.',
  renewalRequired: 'Your account must be renewed before you continue.',
  unknownService: 'Unknown service.',
  heldThroughGroup: 'This service is held through a group.',
  emailChangePending: 'An email change request is already pending for this account.',
  authChangePending: 'An authentication change request is already pending for this account.',
  noCertificateAuthentication: 'This account does not sign in with a certificate.',
  certificateTakenByOther: 'This certificate is already registered to another account.',
  certificateAlreadyYours: 'This certificate is already registered to this account.',
  notFound: 'Not found',
} as const;

/** The update-history comments the self-service writes. */
export const SELF_SERVICE_COMMENTS = {
  profileUpdated: 'Profile updated.',
  renewed: (reason: string) => `Account renewed: ${reason}`,
  requestSubmitted: 'Request submitted.',
} as const;
