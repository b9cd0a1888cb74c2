/**
 * The portal's antd, the data part: the tables, with what they render inside (the
 * selects of their pagers, the empty state). Shared as the singleton
 * `@portal/antd-data`, provided by the host and loaded with the first page that shows a table: the
 * sign-in page and the shell never pay for it.
 *
 * Like antd-core.ts, it is reached through `import { Table } from 'antd'` in the apps' sources
 * (shared/build/antd-imports-loader.cjs). A component an app starts to use is added to a part
 * (antd-extra.ts unless many pages need it), and reaches the browser with the next host release.
 */
export { Empty, Select, Table } from 'antd/es/index.js';
