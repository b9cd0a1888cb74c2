/**
 * The portal's antd, the details part: what a page showing one record's
 * details lays it out with (an account's, a request's, a certificate's). Shared as the singleton
 * `@portal/antd-details`, provided by the host and loaded with the first page that uses one of
 * them; the tables' pages (/groups among them) do not fetch it. Reached through
 * `import { Descriptions } from 'antd'` like the other parts.
 */
export { Descriptions, Flex } from 'antd/es/index.js';
