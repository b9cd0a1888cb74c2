import { links } from '@portal/api';
import { ApiError } from '@portal/shared';
import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export const INVALID_CHALLENGE = 'Invalid Security Challenge Response';
export const UNKNOWN_SERVER_ERROR = 'Unknown server error';

export interface SignInFailure {
  readonly message: string;
  readonly code: number;
}

/** A failure of a sign-in call as the login page shows it (spec section 8, Login). */
export function asSignInFailure(error: unknown): SignInFailure {
  if (error instanceof ApiError && !error.isTransportFailure) return { message: error.message, code: error.code };
  return { message: UNKNOWN_SERVER_ERROR, code: 500 };
}

export function isChallengeFailure(failure: SignInFailure): boolean {
  return failure.message.includes(INVALID_CHALLENGE);
}

function hintsForToken(code: number): ReactNode {
  if (code === 400 || code === 401 || code === 422) {
    return (
      <>
        Forgotten or never received your website token? <Link to={links.resetWebsiteToken()}>Generate a new website token</Link>.
      </>
    );
  }
  if (code === 423) {
    return (
      <>
        Your account is locked. <Link to={links.requestUnlock()}>Request an unlock</Link>.
      </>
    );
  }
  return null;
}

function hintsForCac(code: number, cacSupport: boolean): ReactNode {
  if (code === 401) {
    return (
      <>
        <Link to={links.requestUnlock()}>Request an unlock</Link> if your account is locked.
      </>
    );
  }
  if (code === 404) {
    return (
      <>
        This card is not registered. <Link to={links.requestAccount()}>Request an account</Link>
        {cacSupport && (
          <>
            {' '}
            or <Link to={links.registerCac()}>register your CAC</Link> with an existing account
          </>
        )}
        .
      </>
    );
  }
  return null;
}

/** The error of a sign-in attempt, with the next step the code suggests. */
export function SignInError({ failure, kind, cacSupport }: { failure: SignInFailure; kind: 'token' | 'cac'; cacSupport: boolean }) {
  const hint = kind === 'token' ? hintsForToken(failure.code) : hintsForCac(failure.code, cacSupport);
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={`${failure.message} (code ${failure.code})`}
      description={hint ?? undefined}
      style={{ marginBottom: 16 }}
    />
  );
}
