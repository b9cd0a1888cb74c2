/**
 * antd's components and their style helper are patched (shared/build/patches) so that
 * they do no work for nothing while a page renders, each in the middle of React's commit:
 *  - @rc-component/table measures the browser's scrollbar only when the header is fixed
 *    (scroll.y) or sticky, the only places that size is used. Measuring appends a probe element
 *    to the page and reads its size, a forced layout of the whole page (about 60 ms of a cold
 *    /profile on a 4× slower CPU, for its groups table).
 *  - antd's Descriptions listens to the screen size only when its column count or an item's span
 *    is given per breakpoint: otherwise the first answer rendered every row again (/profile's
 *    account details: 24 rows).
 *  - @rc-component/util writes each style antd computes in the browser (a theme's variables, a
 *    component's) as the <style> element's text, not through innerHTML, which ran the HTML parser
 *    for every one (42 parses, 17–21 ms of a cold /profile's main thread unthrottled, against 16
 *    and 2 ms with the patch, in Lighthouse's traces).
 */
import { render, screen } from '@testing-library/react';
import { Button, ConfigProvider, Descriptions, Table } from 'antd';
import { Profiler, type ReactElement } from 'react';

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

describe('Descriptions', () => {
  const items = [
    { key: 'name', label: 'Name', children: 'Ada Admin' },
    { key: 'email', label: 'Email', children: 'admin@example.test' },
  ];
  /** The phases of the commits that rendered the descriptions. */
  function commits(element: ReactElement): string[] {
    const phases: string[] = [];
    render(
      <Profiler id="details" onRender={(_id, phase) => phases.push(phase)}>
        {element}
      </Profiler>,
    );
    return phases;
  }

  it('with a fixed column count, renders once', () => {
    expect(commits(<Descriptions bordered column={1} items={items} />)).toEqual(['mount']);
    expect(screen.getByText('admin@example.test')).toBeInTheDocument();
  });

  it('with a column count per breakpoint, still follows the screen', () => {
    expect(commits(<Descriptions column={{ xs: 1, md: 2 }} items={items} />)).toEqual(['mount', 'update']);
  });

  it("with an item's span per breakpoint, still follows the screen", () => {
    expect(commits(<Descriptions column={2} items={[...items, { key: 'wide', label: 'Wide', children: 'x', span: { xs: 1, md: 2 } }]} />)).toEqual([
      'mount',
      'update',
    ]);
  });
});

describe("antd's styles computed in the browser", () => {
  /** How often `run` set a <style> element's innerHTML. */
  function innerHtmlWrites(run: () => void): number {
    const own = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML')!;
    let writes = 0;
    Object.defineProperty(HTMLStyleElement.prototype, 'innerHTML', {
      configurable: true,
      get(this: HTMLStyleElement) {
        return own.get!.call(this);
      },
      set(this: HTMLStyleElement, value: string) {
        writes++;
        own.set!.call(this, value);
      },
    });
    try {
      run();
    } finally {
      delete (HTMLStyleElement.prototype as { innerHTML?: string }).innerHTML;
    }
    return writes;
  }

  it("are written as the style element's text, without the HTML parser", () => {
    // A theme of its own: its variables are not in the page yet, so antd writes them now.
    const writes = innerHtmlWrites(() =>
      render(
        <ConfigProvider theme={{ token: { colorPrimary: '#13c2c2' } }}>
          <Button type="primary">Save</Button>
        </ConfigProvider>,
      ),
    );
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    const written = [...document.head.querySelectorAll('style[data-token-hash]')].map((style) => style.textContent ?? '');
    expect(written.some((css) => css.includes('--ant-color-primary:#13c2c2'))).toBe(true);
    expect(writes).toBe(0);
  });
});
