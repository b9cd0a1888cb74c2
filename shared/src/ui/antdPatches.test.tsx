/**
 * Issue 17: @rc-component/table is patched (shared/build/patches) so that a table measures the
 * browser's scrollbar only when its header is fixed (scroll.y) or sticky, the only places that
 * size is used. Measuring appends a probe element to the page and reads its size, a forced
 * layout of the whole page in the middle of React's commit (about 60 ms of a cold /profile on a
 * 4× slower CPU, for its groups table).
 */
import { render, screen } from '@testing-library/react';
import { Table } from 'antd';

const columns = [{ title: 'Name', dataIndex: 'name', key: 'name' }];
const data = [{ key: '1', name: 'Portal Team' }];

/** The ids of the elements appended to <body> while `run` runs. */
function appendedTo(run: () => void): string[] {
  const appended: string[] = [];
  const original = document.body.appendChild.bind(document.body);
  const spy = jest.spyOn(document.body, 'appendChild').mockImplementation(<T extends Node>(node: T): T => {
    if (node instanceof HTMLElement) appended.push(node.id);
    return original(node);
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return appended;
}

const probes = (ids: string[]) => ids.filter((id) => id.startsWith('rc-scrollbar-measure-'));

it('a table without a fixed or sticky header renders without measuring the scrollbar', () => {
  const ids = appendedTo(() => render(<Table columns={columns} dataSource={data} pagination={false} />));
  expect(screen.getByRole('cell', { name: 'Portal Team' })).toBeInTheDocument();
  expect(probes(ids)).toEqual([]);
});

it('a table with a fixed header still measures it, as before', () => {
  const ids = appendedTo(() => render(<Table columns={columns} dataSource={data} pagination={false} scroll={{ y: 200 }} />));
  expect(probes(ids)).toHaveLength(1);
});

it('a sticky header is measured too', () => {
  const ids = appendedTo(() => render(<Table columns={columns} dataSource={data} pagination={false} sticky />));
  expect(probes(ids)).toHaveLength(1);
});
