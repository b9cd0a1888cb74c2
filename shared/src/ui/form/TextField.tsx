import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { Field } from 'react-final-form';
import type { Validator } from '@portal/api';

export interface TextFieldProps {
  readonly name: string;
  readonly label: ReactNode;
  readonly validate?: Validator;
  readonly type?: 'text' | 'password' | 'email';
  readonly autoComplete?: string;
  readonly maxLength?: number;
  readonly autoFocus?: boolean;
}

/**
 * A labelled text input in a react-final-form form: the id comes from the name, the required
 * marker from the validator, and the message shows once the user has tried to submit.
 */
export function TextField({ name, label, validate, type = 'text', autoComplete, maxLength, autoFocus }: TextFieldProps) {
  const id = `field-${name}`;
  return (
    <Field<string> name={name} validate={validate}>
      {({ input, meta }) => {
        const message = meta.submitFailed || meta.submitSucceeded ? (meta.error as string | undefined) ?? (meta.submitError as string | undefined) : undefined;
        const Control = type === 'password' ? Input.Password : Input;
        return (
          <Form.Item
            label={label}
            htmlFor={id}
            required={validate?.isRequired ?? false}
            validateStatus={message ? 'error' : undefined}
            help={message}
          >
            <Control
              {...input}
              id={id}
              type={type === 'password' ? undefined : type}
              autoComplete={autoComplete}
              maxLength={maxLength}
              autoFocus={autoFocus}
              aria-invalid={message ? true : undefined}
              aria-required={validate?.isRequired ? true : undefined}
            />
          </Form.Item>
        );
      }}
    </Field>
  );
}
