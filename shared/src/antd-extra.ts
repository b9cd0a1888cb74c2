/**
 * The portal's antd, third part: components a page here and there uses, kept out of
 * the other parts so that the pages that do not use them (/profile and /groups among them) do not
 * fetch them. Shared as the singleton `@portal/antd-extra`, provided by the host, loaded with the
 * first page that uses one of them; reached through `import { Switch } from 'antd'` like the other
 * parts.
 */
export { Collapse, List, Switch } from 'antd/es/index.js';
