/**
 * The portal's antd, the forms' part: what a form is made of (Form, its fields, and the
 * sign-in page's tabs, radio buttons and card). Shared as the singleton `@portal/antd-forms`,
 * provided by the host and loaded with the first page that shows a form, together with
 * @portal/shared/forms: the pages that only show things, /profile among them, do not fetch it.
 * Reached through `import { Input } from 'antd'` like the other parts.
 */
export { Card, Checkbox, Form, Input, Radio, Tabs } from 'antd/es/index.js';
