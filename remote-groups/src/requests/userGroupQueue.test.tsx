import type { UserGroupRequestDetail } from '@portal/api/request-kinds/user-group';
import { configure, detailAnswer, fakeServer, openRequest, requestDetails as details, SAMPLE_REQUEST, signIn, valueOf } from '@portal/shared/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { USER_GROUP_QUEUE } from './userGroupQueue';

jest.setTimeout(20_000);

function userGroupRequest(overrides: Partial<UserGroupRequestDetail> = {}): UserGroupRequestDetail {
  return {
    ...SAMPLE_REQUEST,
    kind: 'usergroup',
    user_group: 'PORTAL',
    name: 'Portal Team',
    description: 'Builds the portal.',
    open_access: false,
    memberConstraint: 'None',
    visibility: 'site-approved',
    groups: ['PORTAL-release'],
    reason: 'A new project.',
    ...overrides,
  } as UserGroupRequestDetail;
}

const button = (name: string) => screen.getByRole('button', { name });

beforeEach(() => {
  configure({ email_domain: 'example.test', cac_support: true });
  signIn('adjudicator', ['VIEW_USER_GROUP_REQUEST', 'ADJUDICATE_USER_GROUP_REQUEST']);
});

describe('the user group requests’ queue (this remote’s kind)', () => {
  it("shows the group's fields; the feedback names the group", async () => {
    fakeServer({
      'GET /requests/usergroup/12': detailAnswer(userGroupRequest({ services: ['jira', 'confluence'] })),
      'POST /requests/usergroup/12/approved': detailAnswer(userGroupRequest({ status: 'approved' })),
      'POST /requests/usergroup/12/denied': detailAnswer(userGroupRequest({ status: 'denied' })),
    });
    const first = openRequest(USER_GROUP_QUEUE);
    await screen.findByRole('region', { name: 'Request Details' });
    expect(screen.getByRole('heading', { level: 2, name: 'User Group Request' })).toBeInTheDocument();
    expect(valueOf(details(), 'Group ID')).toBe('PORTAL');
    expect(valueOf(details(), 'Group name')).toBe('Portal Team');
    expect(valueOf(details(), 'Open access')).toBe('No');
    // The group page's words (group administration), not the stored values.
    expect(valueOf(details(), 'Membership constraint')).toBe('No authentication requirements.');
    expect(valueOf(details(), 'Visibility')).toBe('Site approved');
    // The services asked for: the adjudicator does not approve blind.
    expect(valueOf(details(), 'Services')).toBe('Jira, Confluence');
    expect(valueOf(details(), 'Additional permission groups')).toBe('PORTAL-release');
    expect(valueOf(details(), 'Requested by')).toBe('Jane Doe (jane.doe)');
    // Not a kind about an existing account: no account below.
    expect(screen.queryByRole('heading', { name: 'Account' })).not.toBeInTheDocument();
    fireEvent.click(button('Deny'));
    expect(await screen.findByTestId('feedback')).toHaveTextContent(/^User group request for PORTAL denied\.$/);
    expect(screen.getByTestId('landed')).toHaveTextContent(/^\/list-user-group-requests$/);
    first.unmount();

    openRequest(USER_GROUP_QUEUE);
    await screen.findByRole('region', { name: 'Decision' });
    fireEvent.click(button('Approve'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByTestId('feedback')).toHaveTextContent(/^New user group PORTAL created\.$/);
  });

  it('says of a hidden DoD group asking for no service what the group page says', async () => {
    fakeServer({
      'GET /requests/usergroup/12': detailAnswer(userGroupRequest({ visibility: 'PORTAL-admin', memberConstraint: 'DoD', services: [] })),
    });
    openRequest(USER_GROUP_QUEUE);
    await screen.findByRole('region', { name: 'Request Details' });
    expect(valueOf(details(), 'Visibility')).toBe('Hidden (PORTAL-admin)');
    expect(valueOf(details(), 'Membership constraint')).toBe('US DoD PKI authentication is required to be a member.');
    expect(valueOf(details(), 'Services')).toBe('None');
  });
});
