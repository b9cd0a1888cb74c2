/**
 * The portal's antd's second part as hosts up to contract 1.3 provided it, `@portal/antd-more`
 * (Descriptions, Empty, Flex, List, Select, Table, Tag), kept for the remotes built then:
 * their builds import those names from it. Since contract 1.4 the apps' builds take them from
 * `@portal/antd-data` (antd-data.ts), `@portal/antd-details` (antd-details.ts) and
 * `@portal/antd-extra` (antd-extra.ts), so that a table's page no longer downloads the details'
 * components and the lists.
 *
 * The host provides this module and never loads it itself; a page loads it only when such a remote
 * is pinned. It takes the parts from the share scope, as the apps do (the keys, not the files: see
 * antd-parts.d.ts), so an older remote's Table is the host's (one theme, one set of contexts), and
 * the host's build does not split the parts' own files further to share them with this module.
 * The apps' sources never import it.
 */
export { Empty, Select, Table } from '@portal/antd-data';
export { Tag } from '@portal/antd-core';
export { Descriptions, Flex } from '@portal/antd-details';
export { List } from '@portal/antd-extra';
