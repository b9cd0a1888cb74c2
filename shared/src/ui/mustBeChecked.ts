import type { Validator } from '@portal/api';

/** A box that must be ticked (a certification): `message` until it is. */
export function mustBeChecked(message: string): Validator {
  return Object.assign((value: unknown) => (value === true ? undefined : message), { isRequired: true });
}
