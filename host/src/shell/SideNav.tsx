import { getRequestSummary, links, type RequestSummary } from '@portal/api';
import { call, remoteForPath, useConfiguration, useHasPermission, useSessionStore } from '@portal/shared';
import { Alert, Menu, type MenuProps } from 'antd';
import { memo, startTransition, useEffect, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { declaredNavigation, showsCounts, sidebarSections, type SidebarGroup, type SidebarLink } from './navigation';
import type { PortalRemote } from '../federation/environment';
import { remoteLoader, useEnvironmentStore } from './startup';

/**
 * The counts asked for on this navigation: the sidebar can mount more than once while a page
 * loads (the layout of the loading state, then the page's), and each mount asks for the same
 * navigation's counts; they share one call.
 */
let recent: { pathname: string; at: number; answer: Promise<RequestSummary> } | undefined;
const SAME_NAVIGATION_MS = 2_000;

function requestSummaryFor(pathname: string): Promise<RequestSummary> {
  if (recent && recent.pathname === pathname && Date.now() - recent.at < SAME_NAVIGATION_MS) return recent.answer;
  const answer = call(getRequestSummary, {});
  const entry = { pathname, at: Date.now(), answer };
  recent = entry;
  answer.catch(() => {
    if (recent === entry) recent = undefined; // a failure is not shared with the next mount
  });
  return answer;
}

/** The request counts, fetched again on each navigation while the block is shown. */
function useRequestSummary(enabled: boolean, pathname: string): RequestSummary | undefined {
  const [summary, setSummary] = useState<RequestSummary>();
  useEffect(() => {
    if (!enabled) return undefined;
    let current = true;
    requestSummaryFor(pathname).then(
      (answer) => {
        // A transition: the menu is rendered again in short slices, not in one long task while
        // the page is still starting (no long task blocks it); the counts are not urgent.
        if (current) startTransition(() => setSummary(answer));
      },
      (error: unknown) => {
        if (current) console.error('Could not load the request counts.', error);
      },
    );
    return () => {
      current = false;
    };
  }, [enabled, pathname]);
  return enabled ? summary : undefined;
}

const NO_PERMISSIONS: readonly string[] = [];

/** A submenu's key: never a path, so that it is not taken for a page ('group:Tokens'). */
const groupKey = (label: string) => `group:${label}`;

/** How long an idle moment is waited for before the sidebar's remotes are loaded anyway. */
const IDLE_TIMEOUT_MS = 3_000;

/** The reader asked to save data (Save-Data), or the connection is too slow to spend on code not asked for. */
function savingData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
  return Boolean(connection?.saveData) || /(?:^|-)2g$/.test(connection?.effectiveType ?? '');
}

/**
 * Calls `then` once the page has settled: the document loaded and nothing on it loading (the
 * portal's loading states, antd's Spin and the pages' skeletons, mark themselves aria-busy).
 * Returns what stops waiting.
 */
function whenPageSettled(then: () => void): () => void {
  const settled = () => document.readyState === 'complete' && document.querySelector('[aria-busy="true"]') === null;
  let done = false;
  const check = () => {
    if (done || !settled()) return;
    done = true;
    stop();
    then();
  };
  const observer = new MutationObserver(check);
  const stop = () => {
    observer.disconnect();
    window.removeEventListener('load', check);
  };
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
  window.addEventListener('load', check);
  check();
  return () => {
    done = true;
    stop();
  };
}

/**
 * The remotes the sidebar's links lead to are loaded (fetched and their routes run) once
 * the page has settled and the browser is idle, so that going to another part of the portal costs
 * what a page of the part already open costs (its page and its data), not a remote's entry and
 * routes, nor a render of the loading state before the page's.
 * Idle alone is not enough: while the page waits for its data or compiles its code off the main
 * thread the browser is idle too, and the fetch would compete with the page's own.
 * Not when the reader saves data: then hovering or focusing a link still starts its remote.
 */
function usePreloadWhenIdle(remotes: readonly PortalRemote[] | undefined, paths: readonly string[]) {
  const key = paths.join(' ');
  useEffect(() => {
    if (!remotes || savingData()) return undefined;
    const wanted = new Set(key.split(' ').flatMap((path) => remoteForPath(remotes, path) ?? []));
    const preloadAll = () => wanted.forEach((remote) => remoteLoader.preload(remote));
    let cancelIdle = () => {};
    const stopWaiting = whenPageSettled(() => {
      if (typeof window.requestIdleCallback === 'function') {
        const handle = window.requestIdleCallback(preloadAll, { timeout: IDLE_TIMEOUT_MS });
        cancelIdle = () => window.cancelIdleCallback(handle);
      } else {
        const handle = window.setTimeout(preloadAll, 1);
        cancelIdle = () => window.clearTimeout(handle);
      }
    });
    return () => {
      stopWaiting();
      cancelIdle();
    };
  }, [remotes, key]);
}

/** Shown instead of the links while the account must be renewed (every other page sends to /renew-account). */
export const RENEWAL_FIRST = 'Your account must be renewed before you can use the rest of the portal.';

/** The keys of a menu's items, its groups' and submenus' included. */
const keys = (list: MenuProps['items']): string[] =>
  (list ?? []).flatMap((item) => (item && 'children' in item && item.children ? keys(item.children) : item?.key ? [String(item.key)] : []));

/**
 * The sidebar of spec section 2 (Chrome): the entries the pinned remotes declare (and the host's
 * own), those the session may open. Their remotes are loaded when the browser is idle; hovering or
 * focusing a link starts loading its remote at once. Memoized: it has no props, so the page
 * changing below it (a remote loading, then its page) does not render the menu again.
 */
export const SideNav = memo(function SideNav() {
  const config = useConfiguration();
  const { pathname } = useLocation();
  const remotes = useEnvironmentStore((s) => s.environment?.remotes);
  const permissions = useSessionStore((s) => s.session?.permissions ?? NO_PERMISSIONS);
  const mustRenew = useHasPermission('RENEW_ACCOUNT');
  const canSeeCounts = useHasPermission('VIEW_REQUEST_SUMMARY');
  const entries = useMemo(() => declaredNavigation(remotes), [remotes]);
  const summary = useRequestSummary(!mustRenew && canSeeCounts && showsCounts(entries, { permissions, config }), pathname);
  const sections = useMemo(() => sidebarSections(entries, { permissions, config, summary }), [entries, permissions, config, summary]);

  const preload = (to: string) => {
    const remote = remotes && remoteForPath(remotes, to);
    if (remote) remoteLoader.preload(remote);
  };
  const link = (to: string, label: string) => (
    <Link to={to} onMouseEnter={() => preload(to)} onFocus={() => preload(to)}>
      {label}
    </Link>
  );
  const itemOf = (item: SidebarLink | SidebarGroup): NonNullable<MenuProps['items']>[number] =>
    item.kind === 'link'
      ? { key: item.to, label: link(item.to, item.label) }
      : { key: groupKey(item.label), label: item.label, children: item.links.map((l) => ({ key: l.to, label: link(l.to, l.label) })) };

  const items: MenuProps['items'] = sections.flatMap((section) =>
    section.label === undefined
      ? section.items.map(itemOf)
      : [{ type: 'group' as const, key: section.section, label: section.label, children: section.items.map(itemOf) }],
  );
  const openGroups = sections.flatMap((section) => section.items.flatMap((item) => (item.kind === 'group' ? [groupKey(item.label)] : [])));
  const paths = mustRenew ? [links.renewAccount()] : keys(items).filter((p) => p.startsWith('/'));
  usePreloadWhenIdle(remotes, paths);
  if (mustRenew) {
    // Every other link would bounce to /renew-account without a word; say why instead.
    return (
      <nav aria-label="Main">
        <Menu
          mode="inline"
          selectedKeys={pathname === links.renewAccount() ? [links.renewAccount()] : []}
          items={[{ key: links.renewAccount(), label: link(links.renewAccount(), 'Renew Your Account') }]}
        />
        <Alert type="info" showIcon title={RENEWAL_FIRST} style={{ margin: 12 }} />
      </nav>
    );
  }
  const selected = paths.filter((p) => pathname === p || pathname.startsWith(p + '/'));
  return (
    <nav aria-label="Main">
      {/* Keyed by its submenus: entries that arrive after the first render (the manifest read late) open as at the start. */}
      <Menu key={openGroups.join(' ')} mode="inline" selectedKeys={selected} defaultOpenKeys={openGroups} items={items} style={{ height: '100%' }} />
    </nav>
  );
});
