/**
 * The sidebar (spec section 2, Chrome) from what the pinned remotes declare: each remote's
 * entries and request queues come with it in the environment manifest (host contract 2.0), the
 * host's own (Manage Remotes) are below. The host knows the sidebar's blocks, the session and the
 * configuration; it knows no remote's page.
 */
import { hostPages, pageEntry, supportedServices, type PortalConfiguration } from '@portal/api';
import { NAVIGATION_SECTIONS, type EnvironmentRemote, type NavigationEntry, type NavigationSection } from '@portal/shared';

/** The host's own pages in the sidebar. */
export const HOST_NAVIGATION: readonly NavigationEntry[] = [pageEntry(hostPages.manageRemotes, { section: 'platform', order: 10, label: 'Manage Remotes' })];

/** The blocks' headings; the first block has none. */
export const SECTION_LABELS: Readonly<Record<NavigationSection, string | undefined>> = {
  main: undefined,
  'manage-accounts': 'Manage Accounts',
  platform: 'Platform',
};

export interface SidebarLink {
  readonly kind: 'link';
  readonly label: string;
  readonly to: string;
}

export interface SidebarGroup {
  readonly kind: 'group';
  readonly label: string;
  readonly links: readonly SidebarLink[];
}

export interface SidebarSection {
  readonly section: NavigationSection;
  readonly label: string | undefined;
  readonly items: readonly (SidebarLink | SidebarGroup)[];
}

export interface SidebarContext {
  readonly permissions: readonly string[];
  readonly config: Pick<PortalConfiguration, 'cac_support' | 'supported_services'>;
  /** The request summary's counts, once read (absent: the names alone). */
  readonly summary?: Readonly<Record<string, number>>;
}

/** Every entry of the pinned remotes and of the host. */
export function declaredNavigation(remotes: readonly Pick<EnvironmentRemote, 'navigation'>[] | undefined): NavigationEntry[] {
  return [...(remotes ?? []).flatMap((remote) => remote.navigation ?? []), ...HOST_NAVIGATION];
}

function applies(entry: NavigationEntry, { permissions, config }: SidebarContext): boolean {
  if (entry.permission !== undefined && !permissions.includes(entry.permission)) return false;
  if (entry.when === undefined) return true;
  if (entry.when === 'smart-cards') return config.cac_support;
  if (entry.when.startsWith('service:')) return (supportedServices(config) as readonly string[]).includes(entry.when.slice('service:'.length));
  return false; // a condition this host does not know: not shown rather than shown wrongly
}

/** Whether any entry shown would carry a count (then the summary is worth reading). */
export function showsCounts(entries: readonly NavigationEntry[], context: SidebarContext): boolean {
  return entries.some((entry) => entry.count !== undefined && applies(entry, context));
}

function linkOf(entry: NavigationEntry, summary: SidebarContext['summary'], label = entry.label): SidebarLink {
  const n = entry.count === undefined ? undefined : summary?.[entry.count];
  return { kind: 'link', label: typeof n === 'number' && n > 0 ? `${label} (${n})` : label, to: entry.path };
}

/**
 * The sidebar's blocks, each with the entries the session may open in their declared order; a
 * block with nothing to show is left out. Entries of one group are one submenu where the first of
 * them stands, or that entry alone under the group's name when only one of them is shown.
 */
export function sidebarSections(entries: readonly NavigationEntry[], context: SidebarContext): SidebarSection[] {
  const shown = entries.filter((entry) => applies(entry, context)).sort((a, b) => a.order - b.order || a.label.localeCompare(b.label));
  return NAVIGATION_SECTIONS.flatMap((section): SidebarSection[] => {
    const inSection = shown.filter((entry) => entry.section === section);
    const items: (SidebarLink | SidebarGroup)[] = [];
    const placed = new Set<string>();
    for (const entry of inSection) {
      if (entry.group === undefined) {
        items.push(linkOf(entry, context.summary));
        continue;
      }
      if (placed.has(entry.group)) continue;
      placed.add(entry.group);
      const members = inSection.filter((e) => e.group === entry.group);
      items.push(
        members.length === 1
          ? linkOf(entry, context.summary, entry.group)
          : { kind: 'group', label: entry.group, links: members.map((member) => linkOf(member, context.summary)) },
      );
    }
    return items.length === 0 ? [] : [{ section, label: SECTION_LABELS[section], items }];
  });
}
