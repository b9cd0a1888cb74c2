import { Checkbox } from 'antd';
import type { ReactNode } from 'react';
import type { Validator } from '@portal/api';
import { FormField } from './FormField.js';

export { mustBeChecked } from '../mustBeChecked.js';

export interface CheckboxFieldProps {
  readonly name: string;
  /** The box's own label (its text, beside it). */
  readonly label: ReactNode;
  readonly validate?: Validator;
  readonly disabled?: boolean;
}

/**
 * A labelled checkbox in a react-final-form form (a FormField without a label above: the box's
 * text labels it); like TextField, its message shows once the user has tried to submit.
 */
export function CheckboxField({ name, label, validate, disabled }: CheckboxFieldProps) {
  return (
    <FormField<boolean> name={name} type="checkbox" validate={validate}>
      {({ input, control }) => (
        <Checkbox
          {...control}
          name={input.name}
          checked={!!input.checked}
          onChange={(event) => input.onChange(event.target.checked)}
          onBlur={() => input.onBlur()}
          onFocus={() => input.onFocus()}
          disabled={disabled}
        >
          {label}
        </Checkbox>
      )}
    </FormField>
  );
}
