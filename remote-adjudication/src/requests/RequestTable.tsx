/**
 * A queue's list: @portal/shared/components' RequestTable with the kind's columns, the [details]
 * link where the kind's view permission is held.
 */
import type { RequestPage, RequestRow } from '@portal/api';
import { useHasPermission } from '@portal/shared';
import { RequestTable as SharedRequestTable, type Loaded } from '@portal/shared/components';
import type { KindConfig } from './kinds';

export { capitalize } from '@portal/shared/components';

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
  return (
    <SharedRequestTable
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
