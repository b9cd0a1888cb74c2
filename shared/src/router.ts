/**
 * The portal's router (the whole library is also its data routers and server runtime, 52 KB brotli no page needs): what the apps use of react-router-dom, its components and hooks,
 * re-exported from react-router (which react-router-dom re-exports). Every app's
 * `import { Link } from 'react-router-dom'` is served by this module, shared as the singleton
 * `react-router-dom` (shared/build/federation.cjs): one router and one set of its contexts per
 * page, as before; but shared whole, the package was also its data routers and its server runtime,
 * which no app uses (~50 KB brotli on every first page).
 *
 * Like the antd set, this is part of what the host offers its remotes: a name a remote starts to
 * use is added here and reaches the browser with the next host release; router-set.test.ts fails
 * when an app imports from react-router-dom a name this module lacks.
 */
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  NavLink,
  Navigate,
  Outlet,
  Route,
  Router,
  Routes,
  createSearchParams,
  generatePath,
  matchPath,
  matchRoutes,
  resolvePath,
  useHref,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate,
  useNavigationType,
  useOutlet,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRoutes,
  useSearchParams,
} from 'react-router';
