import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { Field } from 'react-final-form';
import type { Validator } from '@portal/api';

export interface TextAreaFieldProps {
  readonly name: string;
  readonly label: ReactNode;
  readonly validate?: Validator;
  /** The limit, shown as a live counter 'n / max' (spec section 9). */
  readonly maxLength: number;
  readonly rows?: number;
  readonly extra?: ReactNode;
}

/**
 * A labelled text area with a live character counter, in a react-final-form form; like
 * TextField, its message shows once the user has tried to submit. The browser stops typing at
 * the limit; the validator still checks it (a pasted or scripted value).
 */
export function TextAreaField({ name, label, validate, maxLength, rows = 4, extra }: TextAreaFieldProps) {
  const id = `field-${name}`;
  return (
    <Field<string> name={name} validate={validate}>
      {({ input, meta }) => {
        const message = meta.submitFailed || meta.submitSucceeded ? (meta.error as string | undefined) ?? (meta.submitError as string | undefined) : undefined;
        return (
          <Form.Item
            label={label}
            htmlFor={id}
            required={validate?.isRequired ?? false}
            validateStatus={message ? 'error' : undefined}
            help={message}
            extra={extra}
          >
            <Input.TextArea
              {...input}
              id={id}
              rows={rows}
              maxLength={maxLength}
              showCount={{ formatter: ({ count }) => `${count} / ${maxLength}` }}
              aria-invalid={message ? true : undefined}
              aria-required={validate?.isRequired ? true : undefined}
            />
          </Form.Item>
        );
      }}
    </Field>
  );
}
