import { Checkbox, Form } from 'antd';
import type { ReactNode } from 'react';
import { Field } from 'react-final-form';
import type { Validator } from '@portal/api';

/** A box that must be ticked (a certification): `message` until it is. */
export function mustBeChecked(message: string): Validator {
  return Object.assign((value: unknown) => (value === true ? undefined : message), { isRequired: true });
}

export interface CheckboxFieldProps {
  readonly name: string;
  /** The box's own label (its text, beside it). */
  readonly label: ReactNode;
  readonly validate?: Validator;
  readonly disabled?: boolean;
}

/**
 * A labelled checkbox in a react-final-form form; like TextField, its message shows once the
 * user has tried to submit.
 */
export function CheckboxField({ name, label, validate, disabled }: CheckboxFieldProps) {
  const id = `field-${name}`;
  return (
    <Field<boolean> name={name} type="checkbox" validate={validate}>
      {({ input, meta }) => {
        const message = meta.submitFailed || meta.submitSucceeded ? (meta.error as string | undefined) ?? (meta.submitError as string | undefined) : undefined;
        return (
          <Form.Item validateStatus={message ? 'error' : undefined} help={message} required={validate?.isRequired ?? false}>
            <Checkbox
              id={id}
              name={input.name}
              checked={!!input.checked}
              onChange={(event) => input.onChange(event.target.checked)}
              onBlur={() => input.onBlur()}
              onFocus={() => input.onFocus()}
              disabled={disabled}
              aria-invalid={message ? true : undefined}
              aria-required={validate?.isRequired ? true : undefined}
            >
              {label}
            </Checkbox>
          </Form.Item>
        );
      }}
    </Field>
  );
}
