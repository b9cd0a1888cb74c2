/**
 * The one list layout of requests (spec section 2, "Request lists and details"): id, a [details]
 * link where the viewer may open one, the kind's identifier, names, email, [username], status,
 * created and updated; Previous and Next above and below. The adjudication queues and a group's
 * membership requests (with seconds and the time zone) both show it.
 */
import type { RequestPage, RequestRow } from '@portal/api';
import type { TableColumnsType } from 'antd';
import { Link, useLocation } from 'react-router-dom';
import { formatDateTime, formatDateTimeWithZone } from './dates.js';
import { PagedTable } from './Pager.js';
import { capitalize } from './text.js';
import type { Loaded } from './useLoaded.js';

export interface RequestTableProps {
  readonly state: Loaded<RequestPage>;
  readonly start: number;
  readonly emptyText: string;
  /** Where a row's details are; absent: no [details] column (the viewer may not open them). */
  readonly detailsPath?: (row: RequestRow) => string;
  /** The heading of the identifier column; absent: no such column. */
  readonly identifierLabel?: string;
  readonly formatIdentifier?: (identifier: string) => string;
  readonly showUsername: boolean;
  /** Dates with seconds and the time zone (the membership request list). */
  readonly withSeconds?: boolean;
  onPage(start: number): void;
}

export function RequestTable({ state, start, emptyText, detailsPath, identifierLabel, formatIdentifier, showUsername, withSeconds = false, onPage }: RequestTableProps) {
  const location = useLocation();
  const from = `${location.pathname}${location.search}`;
  const page = state.status === 'ready' ? state.value : state.status === 'loading' ? state.previous : undefined;
  const when = withSeconds ? formatDateTimeWithZone : formatDateTime;

  const columns: TableColumnsType<RequestRow> = [{ title: 'ID', dataIndex: 'id', key: 'id' }];
  // Next to the id, so that a wide table (long addresses, two dates) never hides it off screen.
  if (detailsPath) {
    columns.push({
      title: 'Details',
      key: 'details',
      render: (_: unknown, row: RequestRow) => (
        <Link to={detailsPath(row)} state={{ from }}>
          [details]
        </Link>
      ),
    });
  }
  if (identifierLabel) {
    columns.push({
      title: identifierLabel,
      dataIndex: 'identifier',
      key: 'identifier',
      render: (identifier: string) => formatIdentifier?.(identifier) ?? identifier,
    });
  }
  columns.push(
    { title: 'First Name', dataIndex: 'first_name', key: 'first_name' },
    { title: 'Last Name', dataIndex: 'last_name', key: 'last_name' },
    { title: 'Email', dataIndex: 'email', key: 'email' },
  );
  if (showUsername) columns.push({ title: 'Username', dataIndex: 'username', key: 'username' });
  columns.push(
    { title: 'Status', dataIndex: 'status', key: 'status', render: (status: string) => capitalize(status) },
    { title: 'Created', dataIndex: 'created', key: 'created', render: (value: string) => when(value) },
    { title: 'Updated', dataIndex: 'updated', key: 'updated', render: (value: string) => when(value) },
  );
  return (
    <PagedTable<RequestRow>
      rowKey="id"
      rows={page?.rows ?? []}
      columns={columns}
      start={start}
      hasMore={page?.has_more_results ?? false}
      loading={state.status === 'loading'}
      emptyText={emptyText}
      onPage={onPage}
    />
  );
}
