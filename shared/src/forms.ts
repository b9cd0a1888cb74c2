/**
 * @portal/shared/forms: the form primitives (the form shell, its fields, the submission's errors),
 * a strict singleton of its own (shared/build/federation.cjs), provided by the host and loaded with
 * the first page that shows a form, so that pages without one do not download them. They bring the form stack with them (final-form,
 * react-final-form, antd's Form, Input, Checkbox …, about a fifth of what the host's first file
 * held), which pages that only show things (/profile, the tables) no longer download before their
 * content. One copy per page still: every field finds the <Form> context of the form it is in.
 *
 * It shares @portal/shared's version and record (surface.test.ts lists its names as `forms:Name`),
 * and takes what it needs of @portal/shared's root (ApiError) from the singleton, by the package's
 * name, never by a relative path: a second copy of the root would be a second API transport.
 */
export * from './ui/form/FormField.js';
export * from './ui/form/FormShell.js';
export * from './ui/form/TextField.js';
export * from './ui/form/TextAreaField.js';
export * from './ui/form/CheckboxField.js';
export * from './ui/form/submission.js';
