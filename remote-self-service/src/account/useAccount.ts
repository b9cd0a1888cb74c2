/** Loading an account for the signed-in screens, and turning a failed call into form errors. */
import { type Account } from '@portal/api';
import { submissionErrors } from '@portal/shared';
import { type Loaded, useLoaded } from '@portal/shared/components';
import { FORM_ERROR, type SubmissionErrors } from 'final-form';
import { useMemo } from 'react';
import { getAccount } from '../api/account';

export type AccountState = Exclude<Loaded<Account>, { readonly status: 'idle' }>;

/** GET /accounts/{username} (useLoaded), again whenever the username changes; aborted on unmount. */
export function useAccount(username: string | undefined): AccountState {
  const load = useMemo(() => (username ? (signal: AbortSignal) => getAccount(username, { signal }) : undefined), [username]);
  const state = useLoaded(load);
  // No username yet: the page waits (the host's guard resolves the session before a signed-in page shows).
  return state.status === 'idle' ? { status: 'loading' } : state;
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

