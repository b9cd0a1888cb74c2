import { Button, Flex, Table, Typography, type TableColumnsType } from 'antd';
import { PAGE_SIZE as SEARCH_PAGE_SIZE } from '@portal/api';

export interface PagerProps {
  /** The index of the page's first row (0, 30, 60 …). */
  readonly start: number;
  /** The server said there are rows after this page. */
  readonly hasMore: boolean;
  /** Rows on this page (for 'Results 31–60'); omitted: no range shown. */
  readonly count?: number;
  readonly pageSize?: number;
  /** The navigation landmark's name; two pagers on one page need two names. */
  readonly label: string;
  readonly disabled?: boolean;
  onChange(start: number): void;
}

/**
 * Previous and Next of a paged search or list (spec section 4, "Search paging"): previous
 * subtracts a page and is disabled at 0; next adds a page and is disabled without more results.
 */
export function Pager({ start, hasMore, count, pageSize = SEARCH_PAGE_SIZE, label, disabled = false, onChange }: PagerProps) {
  return (
    <nav aria-label={label} style={{ margin: '12px 0' }}>
      <Flex gap="small" align="center" wrap>
        <Button onClick={() => onChange(Math.max(0, start - pageSize))} disabled={disabled || start <= 0}>
          Previous
        </Button>
        <Button onClick={() => onChange(start + pageSize)} disabled={disabled || !hasMore}>
          Next
        </Button>
        {count !== undefined && count > 0 && (
          <Typography.Text type="secondary">{`Results ${start + 1}–${start + count}`}</Typography.Text>
        )}
      </Flex>
    </nav>
  );
}

export interface PagedTableProps<T> {
  readonly rows: readonly T[];
  readonly columns: TableColumnsType<T>;
  readonly rowKey: keyof T & string;
  readonly start: number;
  readonly hasMore: boolean;
  /** A page is on its way: the pager and the table wait. */
  readonly loading: boolean;
  /** What an empty table says once loaded. */
  readonly emptyText: string;
  onPage(start: number): void;
}

/** A page of rows with Previous and Next above and below it (spec section 2, Search Accounts and the request lists). */
export function PagedTable<T extends object>({ rows, columns, rowKey, start, hasMore, loading, emptyText, onPage }: PagedTableProps<T>) {
  const pager = (label: string) => <Pager label={label} start={start} hasMore={hasMore} count={rows.length} disabled={loading} onChange={onPage} />;
  return (
    <>
      {pager('Result pages, top')}
      <Table<T>
        rowKey={rowKey}
        size="small"
        columns={columns}
        dataSource={[...rows]}
        loading={loading}
        pagination={false}
        // As wide as the page: cells wrap between words, and only a table that cannot fit even
        // then (a phone) scrolls sideways inside its own box.
        scroll={{ x: '100%' }}
        locale={{ emptyText: loading ? 'Loading…' : emptyText }}
      />
      {pager('Result pages, bottom')}
    </>
  );
}
