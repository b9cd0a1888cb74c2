/**
 * The portal's antd, first part: the components every page needs before its content,
 * the ones the host's shell and @portal/shared's singleton render (the sign-in page's form is in
 * antd-forms.ts, loaded with it). Shared as the singleton `@portal/antd-core`; the host loads it
 * at start.
 *
 * The apps do not import this module: they write `import { Button } from 'antd'`, and the build
 * (shared/build/antd-imports-loader.cjs) sends each name to the part that has it. A component
 * joins this part when the shell or the singleton starts to use it (antd-set.test.ts fails
 * otherwise); anything else goes into another part, which a page loads when it needs it. One
 * exception: Tag (2.2 KB brotli), which the details (an account's status)
 * and the tables' cells both show. In the tables' part it made /profile wait for the whole table
 * stack (84 KB brotli) before its heading; in the details' part, /groups would fetch the details.
 */
export {
  Alert,
  App,
  Button,
  ConfigProvider,
  Layout,
  Menu,
  Modal,
  Result,
  Skeleton,
  Space,
  Spin,
  Tag,
  Typography,
  theme,
} from 'antd/es/index.js';
