/**
 * The one list layout of every request kind (spec section 2, "Request lists and details"): id,
 * a [details] link where the kind's view permission is held, the kind's identifier, names,
 * email, [username], status, created and updated; Previous and Next above and below.
 */
import { type RequestPage, type RequestRow } from '@portal/api';
import { useHasPermission } from '@portal/shared';
import { formatDateTime, type Loaded, PagedTable } from '@portal/shared/components';
import type { TableColumnsType } from 'antd';
import { Link, useLocation } from 'react-router-dom';
import type { KindConfig } from './kinds';

export const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export interface RequestTableProps {
  readonly config: KindConfig;
  readonly state: Loaded<RequestPage>;
  readonly start: number;
  readonly emptyText: string;
  /** The details of a row (default: `${config.listPath}/${id}`). */
  detailsPath?(row: RequestRow): string;
  onPage(start: number): void;
}

export function RequestTable({ config, state, start, emptyText, detailsPath, onPage }: RequestTableProps) {
  const canView = useHasPermission(config.viewPermission);
  const location = useLocation();
  const from = `${location.pathname}${location.search}`;
  const page = state.status === 'ready' ? state.value : state.status === 'loading' ? state.previous : undefined;
  const rows = page?.rows ?? [];
  const loading = state.status === 'loading';

  const columns: TableColumnsType<RequestRow> = [{ title: 'ID', dataIndex: 'id', key: 'id' }];
  // Next to the id, so that a wide table (long addresses, two dates) never hides it off screen.
  if (canView) {
    columns.push({
      title: 'Details',
      key: 'details',
      render: (_: unknown, row: RequestRow) => (
        <Link to={detailsPath ? detailsPath(row) : `${config.listPath}/${row.id}`} state={{ from }}>
          [details]
        </Link>
      ),
    });
  }
  if (config.identifierLabel) {
    columns.push({
      title: config.identifierLabel,
      dataIndex: 'identifier',
      key: 'identifier',
      render: (identifier: string) => config.formatIdentifier?.(identifier) ?? identifier,
    });
  }
  columns.push(
    { title: 'First Name', dataIndex: 'first_name', key: 'first_name' },
    { title: 'Last Name', dataIndex: 'last_name', key: 'last_name' },
    { title: 'Email', dataIndex: 'email', key: 'email' },
  );
  if (config.showUsername) columns.push({ title: 'Username', dataIndex: 'username', key: 'username' });
  columns.push(
    { title: 'Status', dataIndex: 'status', key: 'status', render: (status: string) => capitalize(status) },
    { title: 'Created', dataIndex: 'created', key: 'created', render: (value: string) => formatDateTime(value) },
    { title: 'Updated', dataIndex: 'updated', key: 'updated', render: (value: string) => formatDateTime(value) },
  );
  return (
    <PagedTable<RequestRow>
      rowKey="id"
      rows={rows}
      columns={columns}
      start={start}
      hasMore={page?.has_more_results ?? false}
      loading={loading}
      emptyText={emptyText}
      onPage={onPage}
    />
  );
}
