import { Form } from 'antd';
import type { ReactNode } from 'react';
import { Field, type FieldInputProps } from 'react-final-form';
import type { Validator } from '@portal/api';

/** What a field's control is given: the field's input, and the props it must carry. */
export interface FieldControl<V> {
  readonly input: FieldInputProps<V>;
  /** Spread onto the control: the id the label points at, and its invalid and required state for screen readers. */
  readonly control: { readonly id: string; readonly 'aria-invalid'?: true; readonly 'aria-required'?: true; readonly 'aria-describedby'?: string };
}

export interface FormFieldProps<V> {
  readonly name: string;
  /** The label above the control; none for a control that labels itself (a checkbox's text). */
  readonly label?: ReactNode;
  readonly validate?: Validator;
  /** Help below the control (read out with it: the control is described by it). */
  readonly extra?: ReactNode;
  /** react-final-form's input type: 'checkbox' makes `input.checked` the value. */
  readonly type?: 'checkbox';
  /** The control, e.g. `({ input, control }) => <Input {...input} {...control} />`. */
  readonly children: (field: FieldControl<V>) => ReactNode;
}

/** The message a field shows: its rule's, else the server's, once the user has tried to submit. */
function shownMessage(meta: { submitFailed?: boolean; submitSucceeded?: boolean; error?: unknown; submitError?: unknown }): string | undefined {
  if (!meta.submitFailed && !meta.submitSucceeded) return undefined;
  return (meta.error as string | undefined) ?? (meta.submitError as string | undefined);
}

/**
 * One field of a react-final-form form laid out by antd: the id comes from the name (`field-<name>`,
 * the label's target), the required marker from the validator (`isRequired`), and the message
 * (the rule's, else the server's) shows once the user has tried to submit, with aria-invalid on
 * the control. TextField, TextAreaField and CheckboxField are this with their control.
 */
export function FormField<V = string>({ name, label, validate, extra, type, children }: FormFieldProps<V>) {
  const id = `field-${name}`;
  const required = validate?.isRequired ?? false;
  return (
    <Field<V> name={name} type={type} validate={validate}>
      {({ input, meta }) => {
        const message = shownMessage(meta);
        const control = {
          id,
          'aria-invalid': message ? true : undefined,
          'aria-required': required ? true : undefined,
          'aria-describedby': extra === undefined ? undefined : `${id}-extra`,
        } as const;
        return (
          <Form.Item
            label={label}
            htmlFor={label === undefined ? undefined : id}
            required={required}
            validateStatus={message ? 'error' : undefined}
            help={message}
            extra={extra === undefined ? undefined : <span id={`${id}-extra`}>{extra}</span>}
          >
            {children({ input, control })}
          </Form.Item>
        );
      }}
    </Field>
  );
}
