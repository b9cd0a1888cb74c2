import { Button, Form as AntForm, Input, Space } from 'antd';
import { useCallback, useId, useMemo, useState } from 'react';
import { Field } from 'react-final-form';
import { useSearchParams } from 'react-router-dom';
import { MAX_SEARCH_TERM, required, SEARCH_TERM_REQUIRED } from '@portal/api';
import { FormShell } from '@portal/shared/forms';

const termRules = required(SEARCH_TERM_REQUIRED);

export interface SearchFormProps {
  /** The box's label, e.g. 'Search by username, first name, last name or email'. */
  readonly label: string;
  /** The search landmark's name. */
  readonly name: string;
  /** The term shown in the box (the one in the URL). */
  readonly term: string;
  readonly searching?: boolean;
  /** Called with the trimmed term, never an empty one. */
  onSearch(term: string): void;
}

/**
 * One search box and a Search button (spec sections 2 and 5): a search runs only with a
 * non-empty trimmed term; otherwise 'Please enter a search term.' shows under the box and
 * nothing is sent. The box stops at the server's limit (MAX_SEARCH_TERM, 255 characters), so a
 * longer term cannot be typed or pasted (a screen never shows the schema's own words).
 */
export function SearchForm({ label, name, term, searching = false, onSearch }: SearchFormProps) {
  const id = useId();
  const initialValues = useMemo(() => ({ term }), [term]);
  return (
    <FormShell<{ term?: string }>
      onSubmit={(values) => onSearch((values.term ?? '').trim())}
      initialValues={initialValues}
      role="search"
      aria-label={name}
      style={{ maxWidth: 640, marginBottom: 16 }}
      // The Search button sits in the box's row, not below it.
      buttons={null}
    >
      <Field<string> name="term" validate={termRules}>
        {({ input, meta }) => {
          const message = meta.submitFailed ? (meta.error as string | undefined) : undefined;
          return (
            <AntForm.Item label={label} htmlFor={id} validateStatus={message ? 'error' : undefined} help={message}>
              <Space.Compact style={{ width: '100%' }}>
                <Input {...input} id={id} autoComplete="off" maxLength={MAX_SEARCH_TERM} aria-invalid={message ? true : undefined} />
                <Button type="primary" htmlType="submit" loading={searching}>
                  Search
                </Button>
              </Space.Compact>
            </AntForm.Item>
          );
        }}
      </Field>
    </FormShell>
  );
}

export interface SearchQuery {
  /** The term in the URL ('' before any search). */
  readonly term: string;
  /** The index of the page's first row, from the URL (0 when absent or not a whole number). */
  readonly start: number;
  /** Changes when the same search is asked for again (the URL alone would not change). */
  readonly again: number;
  search(term: string): void;
  goTo(start: number): void;
}

/**
 * A search or a paged list kept in the URL (?term=…&start=…): Back and a reload show the same
 * page of results. A new search starts at 0; paging keeps the term.
 */
export function useSearchQuery(): SearchQuery {
  const [params, setParams] = useSearchParams();
  const term = params.get('term') ?? '';
  const rawStart = Number(params.get('start') ?? '0');
  const start = Number.isInteger(rawStart) && rawStart > 0 ? rawStart : 0;
  const [again, setAgain] = useState(0);

  const search = useCallback(
    (next: string) => {
      if (next === term && start === 0) setAgain((n) => n + 1);
      else setParams({ term: next, start: '0' });
    },
    [term, start, setParams],
  );
  const goTo = useCallback(
    (nextStart: number) =>
      setParams((previous) => {
        const query = new URLSearchParams(previous);
        query.set('start', String(Math.max(0, nextStart)));
        return query;
      }),
    [setParams],
  );
  return { term, start, again, search, goTo };
}
