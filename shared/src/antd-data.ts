/**
 * The portal's antd, second part (issue 17): the data components most pages of the remotes use
 * (tables, with the selects their pagers need; lists, descriptions, tags …). Shared as the singleton
 * `@portal/antd-more`, provided by the host and loaded with the first page that uses one of them:
 * the sign-in page and the shell never pay for them.
 *
 * Like antd-core.ts, it is reached through `import { Table } from 'antd'` in the apps' sources
 * (shared/build/antd-imports-loader.cjs). A component an app starts to use is added to a part
 * (antd-extra.ts unless many pages need it), and reaches the browser with the next host release.
 */
export { Descriptions, Empty, Flex, List, Select, Table, Tag } from 'antd/es/index.js';
