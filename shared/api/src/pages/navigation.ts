/**
 * The sidebar's entries (spec section 2, Chrome), each written against the page it opens or the
 * request kind whose queue it lists: its path, its permission and its count come from that page's
 * or kind's declaration, so that each is written once. A remote's `src/navigation.ts` exports its
 * entries (`navigation`); its build writes them into its record (portal-remote.json), which the
 * server and the host read without loading the remote's code (docs/federation.md).
 */
import type { PortalPage } from './page.js';
import { listPermission, type RequestKindDeclaration } from '../requests/kinds.js';

/** The sidebar's blocks: the list every user has, Manage Accounts, Platform. */
export const NAVIGATION_SECTIONS = ['main', 'manage-accounts', 'platform'] as const;
export type NavigationSection = (typeof NAVIGATION_SECTIONS)[number];

/** A sidebar entry, as a remote's record carries it. The host shows every pinned remote's, each block sorted by `order`. */
export interface NavigationEntry {
  readonly section: NavigationSection;
  /** Its place in its block, among every remote's entries (smaller first). */
  readonly order: number;
  readonly label: string;
  /** The page it opens: one of the remote's own pages, under one of its route prefixes. */
  readonly path: string;
  /** Shown only to a session holding this permission (the page's own, so that no link leads to a refusal). */
  readonly permission?: string;
  /**
   * Shown only when the portal is set up for it: 'smart-cards' (CAC support) or 'service:NAME'
   * (the service is among the portal's supported services).
   */
  readonly when?: string;
  /**
   * A field of the request summary (GET /requests, e.g. 'total_new'): the entry reads
   * 'Label (n)' when n is above 0. Read for sessions that may see the summary.
   */
  readonly count?: string;
  /**
   * Entries with the same group are one submenu of that name; when only one of them is shown,
   * it stands alone under the group's name ('Tokens').
   */
  readonly group?: string;
}

/** Where an entry stands and what it reads; the rest comes from its page or its kind. */
export type NavigationPlacement = Pick<NavigationEntry, 'section' | 'order' | 'label' | 'when' | 'group'>;

/**
 * The entry opening `target`, shown to whom the page lets in (its permission, when it needs one).
 * A page whose pattern has parameters cannot be opened from the sidebar: that stops the build.
 */
export function pageEntry(target: PortalPage, { section, order, label, when, group }: NavigationPlacement): NavigationEntry {
  if (target.pattern.includes(':')) throw new Error(`The sidebar cannot open ${target.pattern}: a page with parameters needs them`);
  return {
    section,
    order,
    label,
    path: target.pattern,
    ...(target.access.kind === 'permission' ? { permission: target.access.permission } : {}),
    ...(when === undefined ? {} : { when }),
    ...(group === undefined ? {} : { group }),
  };
}

/**
 * The entry listing a kind's queue in Manage Accounts: its declared path, shown to whom may list
 * it, with its count (`total_{kind}`), and only with CAC support when the queue exists only then.
 * A kind without a queue (decided elsewhere) stops the build.
 */
export function queueEntry(kind: RequestKindDeclaration, { order, label }: Pick<NavigationPlacement, 'order' | 'label'>): NavigationEntry {
  const { queue } = kind;
  if (queue === undefined) throw new Error(`The ${kind.kind} requests have no queue to list: their declaration has none`);
  return {
    section: 'manage-accounts',
    order,
    label,
    path: queue.path,
    permission: listPermission(kind),
    count: `total_${kind.kind}`,
    ...(queue.smartCardsOnly ? { when: 'smart-cards' } : {}),
  };
}
