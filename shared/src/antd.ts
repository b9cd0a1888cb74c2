/**
 * The portal's antd as one module: all its parts (antd-core.ts, antd-data.ts, antd-details.ts,
 * antd-extra.ts, antd-forms.ts), shared under the key `antd` for the remotes built before host
 * contract 1.2, whose `import { Table } from 'antd'` is served by it. The host provides it and never
 * loads it itself; a page loads it only when such a remote is pinned. Since contract 1.2 the apps
 * reach the parts on their own (see shared/build/antd-imports-loader.cjs), so the sign-in page no
 * longer carries the tables.
 *
 * It takes the parts from the share scope (their keys, not their files: see antd-parts.d.ts), so
 * an older remote's Table and the host's ConfigProvider still share one theme and one set of
 * contexts, and the host's build does not split the parts' files further to share them with it.
 */
export * from '@portal/antd-core';
export * from '@portal/antd-data';
export * from '@portal/antd-details';
export * from '@portal/antd-extra';
export * from '@portal/antd-forms';
