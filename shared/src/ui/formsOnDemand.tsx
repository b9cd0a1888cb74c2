/**
 * The form primitives as @portal/shared's root exported them up to 0.3.1 (host contract 1.2), kept
 * for the remotes built then, which still import them from there. Since 0.3.2 they are a singleton of their own,
 * @portal/shared/forms (../forms.ts), which the apps import, and which the root no longer carries:
 * a page without a form, and the host's first file, download none of the form stack.
 *
 * Here each component loads @portal/shared/forms (the same singleton) on its first render, so an
 * older remote's form page shows the page's loading state once, then its form. `submissionErrors`
 * is asked for after a submission, when the form that was submitted has loaded them.
 * `mustBeChecked` is the very function (it needs nothing of the form stack).
 *
 * The apps' own sources must not import these (shared/src/antd-set.test.ts fails if they do).
 */
import { lazy, type ComponentType } from 'react';
import type * as FormsModule from '../forms.js';

type Forms = typeof FormsModule;

let forms: Forms | undefined;
let loading: Promise<Forms> | undefined;

function loadForms(): Promise<Forms> {
  loading ??= import('@portal/shared/forms').then(
    (module) => (forms = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

type ComponentName = 'FormShell' | 'FormField' | 'TextField' | 'TextAreaField' | 'CheckboxField' | 'FormSubmitError';

function onDemand<K extends ComponentName>(name: K): Forms[K] {
  return lazy(() => loadForms().then((module) => ({ default: module[name] as unknown as ComponentType<object> }))) as unknown as Forms[K];
}

/** @deprecated Since @portal/shared 0.3.2: import it from '@portal/shared/forms'. */
export const FormShell = onDemand('FormShell');
/** @deprecated Since @portal/shared 0.3.2: import it from '@portal/shared/forms'. */
export const FormField = onDemand('FormField');
/** @deprecated Since @portal/shared 0.3.2: import it from '@portal/shared/forms'. */
export const TextField = onDemand('TextField');
/** @deprecated Since @portal/shared 0.3.2: import it from '@portal/shared/forms'. */
export const TextAreaField = onDemand('TextAreaField');
/** @deprecated Since @portal/shared 0.3.2: import it from '@portal/shared/forms'. */
export const CheckboxField = onDemand('CheckboxField');
/** @deprecated Since @portal/shared 0.3.2: import it from '@portal/shared/forms'. */
export const FormSubmitError = onDemand('FormSubmitError');

/** @deprecated Since @portal/shared 0.3.2: import it from '@portal/shared/forms'. */
export function submissionErrors(error: unknown, formFields?: readonly string[]): ReturnType<Forms['submissionErrors']> {
  if (!forms) throw new Error('The form primitives are not loaded: submissionErrors is for the answer to a form that was shown.');
  return forms.submissionErrors(error, formFields);
}

export { mustBeChecked } from './mustBeChecked.js';
