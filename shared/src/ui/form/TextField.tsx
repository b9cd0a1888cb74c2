import { Input } from 'antd';
import type { ReactNode } from 'react';
import type { Validator } from '@portal/api';
import { FormField } from './FormField.js';

export interface TextFieldProps {
  readonly name: string;
  readonly label: ReactNode;
  readonly validate?: Validator;
  readonly type?: 'text' | 'password' | 'email';
  readonly autoComplete?: string;
  readonly maxLength?: number;
  readonly autoFocus?: boolean;
  /** Help below the input (it describes the input to screen readers). */
  readonly extra?: ReactNode;
}

/**
 * A labelled text input in a react-final-form form (a FormField: the id comes from the name, the
 * required marker from the validator, and the message shows once the user has tried to submit).
 */
export function TextField({ name, label, validate, type = 'text', autoComplete, maxLength, autoFocus, extra }: TextFieldProps) {
  const Control = type === 'password' ? Input.Password : Input;
  return (
    <FormField name={name} label={label} validate={validate} extra={extra}>
      {({ input, control }) => (
        <Control
          {...input}
          {...control}
          type={type === 'password' ? undefined : type}
          autoComplete={autoComplete}
          maxLength={maxLength}
          autoFocus={autoFocus}
        />
      )}
    </FormField>
  );
}
