/**
 * The keys under which the host shares the parts of the portal's antd (../build/antd-imports-loader.cjs),
 * as the modules that serve the remotes built for an earlier contract (antd.ts, antd-more.ts)
 * import them: through the share scope, so that a page holds one copy of each part. Typed as
 * antd itself; the apps never import these keys (they write `from 'antd'`, and antd-set.test.ts
 * fails if a source names a part).
 */
declare module '@portal/antd-core' {
  export * from 'antd';
}
declare module '@portal/antd-data' {
  export * from 'antd';
}
declare module '@portal/antd-details' {
  export * from 'antd';
}
declare module '@portal/antd-extra' {
  export * from 'antd';
}
declare module '@portal/antd-forms' {
  export * from 'antd';
}
