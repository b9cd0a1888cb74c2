/** For the tests of a queue's pages, whichever remote owns the kind (part of @portal/shared/testing; never in a bundle). */
import type { Decision, RequestDetail } from '@portal/api';
import { screen, within } from '@testing-library/react';
import type { InitialEntry } from 'react-router-dom';
import { renderPage, type FakeAnswer } from './fakeApi.js';
import { requestDetailPage } from './requests/RequestDetailPage.js';
import type { KindConfig } from './requests/queue.js';

/** What every sample request says besides its kind's own fields: pending, from Jane Doe, with one update. */
export const SAMPLE_REQUEST = {
  id: 12,
  status: 'pending' as const,
  username: 'jane.doe',
  email: 'jane.doe@example.test',
  first_name: 'Jane',
  last_name: 'Doe',
  reason: 'Builds the portal.',
  created: '2026-03-03T16:05:00',
  updated: '2026-03-04T09:30:00',
  adjudicator: null,
  submitted_by: null,
  updates: [{ status: 'pending' as const, username: 'jane.doe', created: '2026-03-03T16:05:00', comment: 'Request submitted.' }],
  account: null,
  decisions: ['approved', 'denied'] as Decision[],
};

/** The details page of `config` at a request's URL; a list's URL (one segment) shows where the page went. */
export function openRequest(config: KindConfig, entries: InitialEntry[] = [config.listPath, `${config.listPath}/12`], title?: string) {
  const Page = requestDetailPage(config, title);
  return renderPage(<Page />, { path: ':list/:requestId', entries });
}

/** The region of the request's details. */
export const requestDetails = () => screen.getByRole('region', { name: 'Request Details' });

/** The value next to a label in a Descriptions table. */
export function valueOf(container: HTMLElement, label: string): string | null {
  const th = within(container).getByText(label, { selector: 'th, th *' }).closest('th') as HTMLElement;
  return (th.nextElementSibling as HTMLElement).textContent;
}

/** The fake API's answer with a request. */
export const detailAnswer = (request: RequestDetail): FakeAnswer => ({ body: request });
