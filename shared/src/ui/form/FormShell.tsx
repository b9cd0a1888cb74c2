import { Button, Form as AntForm, Space } from 'antd';
import type { Config } from 'final-form';
import type { AriaRole, CSSProperties, ReactElement, ReactNode } from 'react';
import { Form, type FormRenderProps } from 'react-final-form';
import { FormSubmitError } from './submission.js';

export interface FormShellCancel {
  readonly onClick: () => void;
  /** 'Cancel' unless told. */
  readonly label?: ReactNode;
  /** Enabled while the form submits too (e.g. while its confirm modal asks); disabled then unless told. */
  readonly whileSubmitting?: boolean;
}

export interface FormShellProps<V> {
  readonly onSubmit: Config<V>['onSubmit'];
  readonly initialValues?: Config<V>['initialValues'];
  /** A rule on the whole form (a field's own rules go on the field). */
  readonly validate?: Config<V>['validate'];
  /** The form's accessible name (named, it is a landmark: role form). */
  readonly 'aria-label'?: string;
  /** Another landmark role (a search form: 'search'). */
  readonly role?: AriaRole;
  readonly style?: CSSProperties;
  /** The primary button's label. */
  readonly submitLabel?: ReactNode;
  /** A second button beside it (Cancel), disabled while the form submits. */
  readonly cancel?: FormShellCancel;
  /**
   * Other buttons instead of the submit button and Cancel, given the form's state and the
   * default submit button (a danger button, one button per decision, a second action that
   * stays enabled); null for none (the button sits in a field, as a search box's).
   */
  readonly buttons?: ((form: FormRenderProps<V>, submit: ReactElement) => ReactNode) | null;
  /** Below the buttons and the form's error: another answer the page shows there, the form's confirm modal. */
  readonly footer?: ReactNode;
  /** The fields (above the buttons), or a render of them from the form's state. */
  readonly children: ReactNode | ((form: FormRenderProps<V>) => ReactNode);
}

/**
 * The one form scaffold: a react-final-form form (no browser validation: the rules show their
 * messages) laid out by antd's vertical form, its fields, the submit button (spinning while the
 * form submits) with an optional Cancel beside it, then the form's error below them (spec
 * section 8: "Form errors show below the submit button").
 */
export function FormShell<V = Record<string, unknown>>({
  onSubmit,
  initialValues,
  validate,
  'aria-label': ariaLabel,
  role,
  style,
  submitLabel,
  cancel,
  buttons,
  footer,
  children,
}: FormShellProps<V>) {
  return (
    <Form<V> onSubmit={onSubmit} initialValues={initialValues} validate={validate}>
      {(form) => {
        const { handleSubmit, submitting } = form;
        const submit = (
          <Button type="primary" htmlType="submit" loading={submitting}>
            {submitLabel}
          </Button>
        );
        const row =
          buttons !== undefined ? (
            buttons?.(form, submit)
          ) : cancel ? (
            <Space>
              {submit}
              <Button onClick={cancel.onClick} disabled={submitting && !cancel.whileSubmitting}>
                {cancel.label ?? 'Cancel'}
              </Button>
            </Space>
          ) : (
            submit
          );
        return (
          <form onSubmit={handleSubmit} noValidate role={role} aria-label={ariaLabel} style={style}>
            <AntForm layout="vertical" component={false}>
              {typeof children === 'function' ? children(form) : children}
              {row}
              <FormSubmitError />
              {footer}
            </AntForm>
          </form>
        );
      }}
    </Form>
  );
}
