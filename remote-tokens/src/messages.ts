/** The token screens' own words (the spec's are TOKEN_MESSAGES in @portal/api). */
import { ApiError } from '@portal/shared';
import { TOKEN_MESSAGES } from '@portal/api';

export const TOKEN_TEXT = {
  intro: 'Access tokens let builds and tools use the artifact repository in your name, with the rights you choose.',
  profileLink: 'Your artifact repository profile',
  createButton: 'Create Token',
  expired: 'EXPIRED',
  never: 'Never',
  notRevocable: 'Cannot be revoked',
  revokeTitle: 'Revoke token?',
  revoke: (name: string) => `The token '${name}' stops working at once. Builds and tools that use it will be refused. This cannot be undone.`,
  revoked: (name: string) => `Token '${name}' revoked.`,
  copyOnce: 'Copy this token now. It is shown only once: it cannot be retrieved later. Store it securely, as you would a password.',
  copied: 'Copied to the clipboard.',
  copyFailed: 'The browser did not allow copying: the token is selected, copy it with Ctrl+C (⌘C on a Mac).',
  created: (name: string) => `Token '${name}' created.`,
  continue: 'Continue',
  preview: (when: string) => `The token expires on ${when}.`,
  levels: { read: 'Read', write: 'Write', admin: 'Admin' },
} as const;

/** Spec section 8: a 400 on listing means no artifact repository account; other errors show the server's text. */
export function listingError(error: unknown): string {
  if (error instanceof ApiError && error.status === 400) return TOKEN_MESSAGES.noArtifactoryAccount;
  return error instanceof Error && error.message ? error.message : 'Unknown server error';
}
