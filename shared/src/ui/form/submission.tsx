/**
 * Server answers into a react-final-form form: field messages go under their fields, anything
 * else below the submit button (spec section 8: "Form errors show below the submit button").
 */
import { Alert } from 'antd';
import { FORM_ERROR, type SubmissionErrors } from 'final-form';
import { useFormState } from 'react-final-form';
// From the singleton's root, not a copy of it (see ../../forms.ts).
import { ApiError } from '@portal/shared';

/**
 * The submission errors of a failed call: the server's field messages under their fields, else
 * its message as the form's error (below the submit button). With `formFields`, only messages
 * for this form's fields go under fields; when the server names none of them, its message is the
 * form's error.
 */
export function submissionErrors(error: unknown, formFields?: readonly string[]): SubmissionErrors {
  const message = error instanceof Error && error.message ? error.message : 'Unknown server error';
  if (!(error instanceof ApiError)) return { [FORM_ERROR]: message };
  const named = Object.keys(error.fields).filter((field) => formFields === undefined || formFields.includes(field));
  return named.length > 0 ? Object.fromEntries(named.map((field) => [field, error.fields[field]])) : { [FORM_ERROR]: message };
}

/** The form-level error of the last submission, if any (place it below the submit button). */
export function FormSubmitError() {
  const { submitError, dirtySinceLastSubmit } = useFormState({ subscription: { submitError: true, dirtySinceLastSubmit: true } });
  if (typeof submitError !== 'string' || submitError === '' || dirtySinceLastSubmit) return null;
  return <Alert type="error" showIcon role="alert" title={submitError} style={{ marginTop: 16 }} />;
}
