/** Loading an account for the signed-in screens, and turning a failed call into form errors. */
import { type Account } from '@portal/api';
import { ApiError, submissionErrors } from '@portal/shared';
import { getAccount } from '../api/account';
import { FORM_ERROR, type SubmissionErrors } from 'final-form';
import { useEffect, useState } from 'react';

export type AccountState =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly account: Account }
  | { readonly status: 'failed'; readonly error: unknown };

/** GET /accounts/{username}, again whenever the username changes; aborted on unmount. */
export function useAccount(username: string | undefined): AccountState {
  const [state, setState] = useState<AccountState>({ status: 'loading' });
  useEffect(() => {
    if (!username) return undefined;
    const controller = new AbortController();
    setState({ status: 'loading' });
    getAccount(username, { signal: controller.signal }).then(
      (account) => setState({ status: 'ready', account }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [username]);
  return state;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.code === 404);
}

/**
 * The submission errors of a failed call for a form with these fields: the server's messages
 * under the fields it names, and the message below the submit button when it names none of
 * this form's fields.
 */
export function formErrors(error: unknown, formFields: readonly string[]): SubmissionErrors {
  const errors = submissionErrors(error) ?? {};
  const named = Object.keys(errors).filter((field) => formFields.includes(field));
  if (named.length > 0) return Object.fromEntries(named.map((field) => [field, errors[field]]));
  return { [FORM_ERROR]: error instanceof Error && error.message ? error.message : String(errors[FORM_ERROR] ?? 'Unknown server error') };
}

