import { links } from '../links';
import { adjudicationPages } from './adjudication';
import { groupsPages } from './groups';
import { hostPages } from './host';
import { mailingListsPages } from './mailing-lists';
import { link, page, SIGNED_IN } from './page';
import { selfServicePages } from './self-service';
import { tokensPages } from './tokens';

describe("a page's link", () => {
  const administration = page('/group-administration/:usergroupId/:requestId?', 'Group Administration', SIGNED_IN);

  it('fills each parameter, encoded, and leaves out an absent optional one', () => {
    expect(link(administration, { usergroupId: 'DEV OPS/1' })).toBe('/group-administration/DEV%20OPS%2F1');
    expect(link(administration, { usergroupId: 'PORTAL', requestId: 12 })).toBe('/group-administration/PORTAL/12');
  });

  it('adds the query without its empty values', () => {
    expect(link(hostPages.login, {}, { redirect: '/groups?x=1' })).toBe('/login?redirect=%2Fgroups%3Fx%3D1');
    expect(link(hostPages.login, {}, { redirect: '' })).toBe('/login');
  });

  it('refuses a missing required parameter by name', () => {
    expect(() => link(administration, {} as never)).toThrow('/group-administration/:usergroupId/:requestId?: no usergroupId');
  });

  it('keeps the builders every app links with', () => {
    expect(links.requestMembership('PORTAL', undefined, ['PORTAL-team', 'PORTAL-dev'])).toBe('/request-membership/PORTAL?groups=PORTAL-team%2CPORTAL-dev');
    expect(links.changeEmail()).toBe('/change-email');
    expect(links.changeEmail('jane.doe')).toBe('/change-email/jane.doe');
    expect(links.manageAccounts('a b')).toBe('/manage-accounts/a%20b');
    expect(links.mailingListQueue('dev@lists.example')).toBe('/mailing-lists/dev%40lists.example/queue');
  });
});

describe("the pages' modules", () => {
  it('write each path once across the portal', () => {
    const patterns = [hostPages, selfServicePages, groupsPages, adjudicationPages, mailingListsPages, tokensPages].flatMap((pages) => Object.values(pages).map((p) => p.pattern));
    expect(new Set(patterns).size).toBe(patterns.length);
  });
});
