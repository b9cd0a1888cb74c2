import { Input } from 'antd';
import type { ReactNode } from 'react';
import type { Validator } from '@portal/api';
import { FormField } from './FormField.js';

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
 * A labelled text area with a live character counter, in a react-final-form form (a FormField,
 * like TextField). The browser stops typing at the limit; the validator still checks it (a
 * pasted or scripted value).
 */
export function TextAreaField({ name, label, validate, maxLength, rows = 4, extra }: TextAreaFieldProps) {
  return (
    <FormField name={name} label={label} validate={validate} extra={extra}>
      {({ input, control }) => (
        <Input.TextArea {...input} {...control} rows={rows} maxLength={maxLength} showCount={{ formatter: ({ count }) => `${count} / ${maxLength}` }} />
      )}
    </FormField>
  );
}
