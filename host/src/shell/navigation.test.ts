import { permissionsWith, type Permission } from '@portal/api';
import type { NavigationEntry } from '@portal/shared';
import { declaredRequestKinds, workspaceRemotes } from '@portal/shared/testing';
import { declaredNavigation, showsCounts, sidebarSections, type SidebarContext, type SidebarSection } from './navigation';

/** What the workspace's remotes declare (their src/navigation.ts), as their builds carry it into the manifest. */
const remotes = workspaceRemotes();
const entries = declaredNavigation(remotes);

/** A site administrator's: every permission, each declared request kind's included. */
const ALL: readonly Permission[] = permissionsWith(declaredRequestKinds());
/** The help desk's (server/src/services/roles.ts). */
const HELP_DESK: readonly Permission[] = ['SEARCH_ACCOUNTS', 'VIEW_ACCOUNT', 'VIEW_REQUEST_SUMMARY', 'LIST_UNLOCK_REQUESTS', 'VIEW_UNLOCK_REQUEST'];
const summary = { total_authchange: 0, total_profilechange: 2, total_mailinglist: 0, total_new: 7, total_usergroup: 1, total_unlock: 0 };
const config = { cac_support: true, supported_services: 'artifacts,wiki' };

/** Each block as its heading and its entries' labels (a submenu as 'Group: a, b'). */
const outline = (sections: SidebarSection[]) =>
  sections.map((s) => [s.label ?? '', s.items.map((i) => (i.kind === 'link' ? i.label : `${i.label}: ${i.links.map((l) => l.label).join(', ')}`))]);
const sidebar = (context: Partial<SidebarContext>) => sidebarSections(entries, { permissions: ALL, config, summary, ...context });

describe('the sidebar the pinned remotes declare (spec section 2)', () => {
  it('shows a site administrator every block in the order of the spec, the counts above 0 beside their queues', () => {
    expect(outline(sidebar({}))).toEqual([
      ['', ['My Profile', 'Subscriptions', 'Groups', 'Mailing Lists', 'Tokens: Artifactory, Other Services']],
      [
        'Manage Accounts',
        [
          'Search Accounts',
          'Account Requests (7)',
          'Denied Account Requests',
          'Authentication Change Requests',
          'Email Change Requests (2)',
          'Mailing List Requests',
          'User Group Requests (1)',
          'Unlock Account Requests',
        ],
      ],
      ['Platform', ['Manage Remotes', 'Provisioning']],
    ]);
  });

  it('shows a user the first block alone; without Artifactory, Tokens is one link to the other services', () => {
    const sections = sidebar({ permissions: ['VIEW_SUBSCRIPTIONS'], config: { cac_support: true, supported_services: 'wiki' } });
    expect(outline(sections)).toEqual([['', ['My Profile', 'Subscriptions', 'Groups', 'Mailing Lists', 'Tokens']]]);
    expect(sections[0]?.items[4]).toEqual({ kind: 'link', label: 'Tokens', to: '/tokens/services' });
  });

  it('leaves out the authentication change queue without smart-card support', () => {
    const manage = sidebar({ config: { cac_support: false, supported_services: 'artifacts' } })[1];
    expect(manage?.items.map((i) => i.label)).not.toContain('Authentication Change Requests');
  });

  it('shows the names alone until the counts are known', () => {
    expect(sidebar({ summary: undefined })[1]?.items[1]).toEqual({ kind: 'link', label: 'Account Requests', to: '/list-account-requests' });
  });

  it('lists only the queues the reader may open: the help desk sees the search and the unlock queue', () => {
    expect(outline(sidebar({ permissions: HELP_DESK, summary: { ...summary, total_unlock: 3 } })).slice(1)).toEqual([
      ['Manage Accounts', ['Search Accounts', 'Unlock Account Requests (3)']],
    ]);
  });

  it('reads the counts only where an entry shown carries one', () => {
    expect(showsCounts(entries, { permissions: HELP_DESK, config })).toBe(true);
    expect(showsCounts(entries, { permissions: ['SEARCH_ACCOUNTS'], config })).toBe(false);
  });

  it("shows a remote's new entry with its own count, in its place, with no change to the host", () => {
    const reports: NavigationEntry = { section: 'manage-accounts', order: 85, label: 'Report Requests', path: '/list-report-requests', permission: 'LIST_REPORT_REQUESTS', count: 'total_report' };
    const sections = sidebarSections(declaredNavigation([...remotes, { navigation: [reports] }]), {
      permissions: [...ALL, 'LIST_REPORT_REQUESTS'],
      config,
      summary: { ...summary, total_report: 4 },
    });
    expect(sections[1]?.items.at(-1)).toEqual({ kind: 'link', label: 'Report Requests (4)', to: '/list-report-requests' });
  });

  it('does not show an entry whose condition this host does not know', () => {
    const future: NavigationEntry = { section: 'main', order: 1, label: 'Later', path: '/later', when: 'service:nothing-known' };
    expect(outline(sidebarSections([future], { permissions: ALL, config }))).toEqual([]);
  });
});
