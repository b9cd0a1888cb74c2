/**
 * Validators shared by the forms and the server: one function per rule, each returning the
 * spec's message or undefined. A validator made by required() is marked, so that a field can
 * show the required marker without being told twice.
 */
export type Validator = ((value: unknown) => string | undefined) & { readonly isRequired?: boolean };

export function required(message: string): Validator {
  const check = (value: unknown) => (value === undefined || value === null || String(value).trim() === '' ? message : undefined);
  return Object.assign(check, { isRequired: true });
}

/** Runs validators in order; the first message wins. */
export function composeValidators(...validators: Validator[]): Validator {
  const check = (value: unknown) => {
    for (const validate of validators) {
      const message = validate(value);
      if (message) return message;
    }
    return undefined;
  };
  return Object.assign(check, { isRequired: validators.some((v) => v.isRequired) });
}
