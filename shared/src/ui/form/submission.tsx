/**
 * Server answers into a react-final-form form: field messages go under their fields, anything
 * else below the submit button (spec section 8: "Form errors show below the submit button").
 */
import { Alert } from 'antd';
import { FORM_ERROR, type SubmissionErrors } from 'final-form';
import { useFormState } from 'react-final-form';
import { ApiError } from '../../api/client.js';

/** The submission errors of a failed call: its field messages, or its message as the form's error. */
export function submissionErrors(error: unknown, fallback = 'Unknown server error'): SubmissionErrors {
  if (error instanceof ApiError) {
    const fields = error.fields;
    return Object.keys(fields).length > 0 ? { ...fields } : { [FORM_ERROR]: error.message };
  }
  return { [FORM_ERROR]: error instanceof Error && error.message ? error.message : fallback };
}

/** The form-level error of the last submission, if any (place it below the submit button). */
export function FormSubmitError() {
  const { submitError, dirtySinceLastSubmit } = useFormState({ subscription: { submitError: true, dirtySinceLastSubmit: true } });
  if (typeof submitError !== 'string' || submitError === '' || dirtySinceLastSubmit) return null;
  return <Alert type="error" showIcon role="alert" title={submitError} style={{ marginTop: 16 }} />;
}
