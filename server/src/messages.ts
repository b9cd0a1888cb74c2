/** The API's error texts of sign-in, sessions and access (the host matches some of them). */
export const MESSAGES = {
  invalidXsrf: 'Invalid anti-forgery token',
  notSignedIn: 'Not signed in',
  forbidden: 'Forbidden',
  invalidChallenge: 'Invalid Security Challenge Response',
  invalidCredentials: 'Invalid username or website token.',
  locked: 'This account is locked. Please request an unlock.',
  noCertificate: 'No verified client certificate was presented.',
  unknownCertificate: 'No account is registered for this certificate.',
  certificateAccountUnusable: 'This account is locked or closed.',
  smartCardsOff: 'Smart cards are not supported on this portal.',
} as const;

/** The update-history comment of a lock after too many failed sign-ins. */
export function lockedAfterFailuresComment(failures: number): string {
  return `Locked after ${failures} failed sign-in attempts.`;
}
