/**
 * The portal's antd, the data part: the tables, with what they render inside (the
 * selects of their pagers, the empty state). Shared as the singleton
 * `@portal/antd-data`, provided by the host and loaded with the first page that shows a table: the
 * sign-in page and the shell never pay for it.
 *
 * Like antd-core.ts, it is reached through `import { Table } from 'antd'` in the apps' sources
 * (shared/build/antd-imports-loader.cjs). A component an app starts to use is added to a part
 * (antd-extra.ts unless many pages need it), and reaches the browser with the next host release.
 * Until contract 1.4 this part also held Descriptions, Flex and List (antd-more.ts); until 1.5 it
 * held Tag, now in the first part (antd-core.ts), so that a details page does not wait for the
 * tables. Remotes built for 1.4 import Tag from here: it is still exported, as the first part's
 * (its share key, as antd-more.ts does: one Tag, one module).
 */
export { Empty, Select, Table } from 'antd/es/index.js';
export { Tag } from '@portal/antd-core';
