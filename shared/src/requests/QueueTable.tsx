/**
 * A queue's list: the RequestTable of @portal/shared/components with the kind's columns, and the
 * [details] link where the kind's view permission is held.
 */
import type { RequestPage, RequestRow } from '@portal/api';
import { useHasPermission } from '@portal/shared';
import { RequestTable } from '../components/RequestTable.js';
import type { Loaded } from '../components/useLoaded.js';
import type { KindConfig } from './queue.js';

export interface QueueTableProps {
  readonly config: KindConfig;
  readonly state: Loaded<RequestPage>;
  readonly start: number;
  readonly emptyText: string;
  /** The details of a row (default: `${config.listPath}/${id}`). */
  detailsPath?(row: RequestRow): string;
  onPage(start: number): void;
}

export function QueueTable({ config, state, start, emptyText, detailsPath, onPage }: QueueTableProps) {
  const canView = useHasPermission(config.viewPermission);
  return (
    <RequestTable
      state={state}
      start={start}
      emptyText={emptyText}
      onPage={onPage}
      showUsername={config.showUsername}
      {...(config.identifierLabel ? { identifierLabel: config.identifierLabel } : {})}
      {...(config.formatIdentifier ? { formatIdentifier: config.formatIdentifier } : {})}
      {...(canView ? { detailsPath: detailsPath ?? ((row: RequestRow) => `${config.listPath}/${row.id}`) } : {})}
    />
  );
}
