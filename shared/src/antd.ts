/**
 * The portal's antd (issue 17): the components the host and the remotes use, and only those.
 *
 * Every app's `import { Button } from 'antd'` is served by this module, shared as the singleton
 * `antd` (shared/build/federation.cjs): the host provides it, so a page holds one antd, one theme
 * and one set of contexts, as before; but shared whole, antd could not be tree-shaken and the
 * first page paid for all of it. This module re-exports the used components from antd's own
 * index, so the build keeps exactly these.
 *
 * The set is part of what the host offers its remotes: a component a remote starts using is added
 * here, and so reaches the browser with the next host release. antd-set.test.ts fails when any
 * app's sources use a component that is not in the set.
 */
export {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Collapse,
  ConfigProvider,
  Descriptions,
  Empty,
  Flex,
  Form,
  Input,
  Layout,
  List,
  Menu,
  Modal,
  Radio,
  Result,
  Select,
  Skeleton,
  Space,
  Spin,
  Switch,
  Table,
  Tabs,
  Tag,
  Typography,
  theme,
} from 'antd/es/index.js';
