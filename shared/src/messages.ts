/** Texts shown by more than one app. Spec texts are quoted exactly; the others are the portal's own. */
export const MESSAGES = {
  /** Spec section 8, the generic banner for a transport failure. */
  communicationError:
    'There was an error while communicating with the server. If the problem persists, please contact an administrator.',
  /** Shown in place of a remote that cannot be loaded; the rest of the portal keeps working. */
  remoteUnavailable: 'This part of the portal is unavailable right now.',
  /** Spec section 2, /not-found. */
  notFound: 'The requested resource was not found.',
  /** Spec section 2, /not-authorized. */
  notAuthorized: 'It appears you are not authorized to perform that action.',
  /** Spec section 2, /logout. */
  loggedOut: 'Logged Out',
} as const;
