/**
 * The portal's antd as one module: all its parts (antd-core.ts, antd-more.ts, antd-extra.ts,
 * antd-forms.ts), shared under the key `antd` for the remotes built before host contract 1.2, whose
 * `import { Table } from 'antd'` is served by it. The host provides it and never loads it itself;
 * a page loads it only when such a remote is pinned. Since contract 1.2 the apps reach the parts
 * on their own (see shared/build/antd-imports-loader.cjs), so the sign-in page no longer carries
 * the tables.
 *
 * It re-exports the very modules the parts are, so an older remote's Table and the host's
 * ConfigProvider still share one theme and one set of contexts.
 */
export * from './antd-core.js';
export * from './antd-more.js';
export * from './antd-extra.js';
export * from './antd-forms.js';
