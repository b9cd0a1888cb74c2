import type { MailingListRequestDetail } from '@portal/api/request-kinds/mailing-list';
import { configure, detailAnswer, fakeServer, openRequest, renderPage, requestDetails as details, SAMPLE_REQUEST, signIn, valueOf } from '@portal/shared/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { MAILING_LIST_QUEUE, MailingListRequestsPage } from './mailingListQueue';

jest.setTimeout(20_000);

function mailingListRequest(overrides: Partial<MailingListRequestDetail> = {}): MailingListRequestDetail {
  return {
    ...SAMPLE_REQUEST,
    kind: 'mailinglist',
    list_id: 'portal-dev@example.test',
    user_group: 'PORTAL',
    permission_group: 'PORTAL-team',
    description: 'Developers of the portal.',
    posting_permissions: 'closed',
    automatic_subscription: true,
    reason: 'Team announcements.',
    ...overrides,
  } as MailingListRequestDetail;
}

beforeEach(() => {
  configure({ email_domain: 'example.test' });
  signIn('adjudicator', ['LIST_MAILING_LIST_REQUESTS', 'VIEW_MAILING_LIST_REQUEST', 'ADJUDICATE_MAILING_LIST_REQUEST']);
});

describe('the mailing list requests’ queue (this remote’s kind)', () => {
  it('lists the open requests by list, without a username column, each with its details link', async () => {
    const row = { ...SAMPLE_REQUEST, kind: 'mailinglist' as const, identifier: 'portal-dev@example.test' };
    const { reason: _reason, adjudicator: _adjudicator, submitted_by: _by, updates: _updates, account: _account, decisions: _decisions, ...listed } = row;
    fakeServer({ 'GET /requests/mailinglist?start_index=0&max_results=30': { body: { rows: [listed], has_more_results: false } } });
    renderPage(<MailingListRequestsPage />, { path: '/list-mailing-list-requests', entries: ['/list-mailing-list-requests'] });
    expect(screen.getByRole('heading', { level: 2, name: 'Mailing List Requests' })).toBeInTheDocument();
    expect(await screen.findByText('portal-dev@example.test')).toBeInTheDocument();
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['ID', 'Details', 'Mailing List', 'First Name', 'Last Name', 'Email', 'Status', 'Created', 'Updated']);
    expect(screen.getByRole('link', { name: '[details]' })).toHaveAttribute('href', '/list-mailing-list-requests/12');
  });

  it('shows the description, permission group, posting permissions and opt-out or opt-in; approval names the list', async () => {
    fakeServer({
      'GET /requests/mailinglist/12': [detailAnswer(mailingListRequest()), detailAnswer(mailingListRequest({ automatic_subscription: false }))],
      'POST /requests/mailinglist/12/approved': detailAnswer(mailingListRequest({ status: 'approved' })),
    });
    const first = openRequest(MAILING_LIST_QUEUE);
    await screen.findByRole('region', { name: 'Request Details' });
    expect(screen.getByRole('heading', { level: 2, name: 'Mailing List Request' })).toBeInTheDocument();
    expect(valueOf(details(), 'Mailing list')).toBe('portal-dev@example.test');
    expect(valueOf(details(), 'Description')).toBe('Developers of the portal.');
    expect(valueOf(details(), 'Permission group')).toBe('PORTAL-team');
    expect(valueOf(details(), 'Posting permissions')).toBe('closed');
    expect(valueOf(details(), 'Subscription')).toBe('opt-out');
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByTestId('feedback')).toHaveTextContent(/^New mailing list portal-dev@example\.test created\.$/);
    expect(screen.getByTestId('landed')).toHaveTextContent(/^\/list-mailing-list-requests$/);
    first.unmount();

    openRequest(MAILING_LIST_QUEUE);
    await screen.findByRole('region', { name: 'Request Details' });
    expect(valueOf(details(), 'Subscription')).toBe('opt-in');
  });
});
