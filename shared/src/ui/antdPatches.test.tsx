/**
 * Two of antd's dependencies are patched (shared/build/patches, listed in pnpm-workspace.yaml) so
 * that they do no work for nothing while a page renders, each in the middle of React's commit:
 *  - @rc-component/table measures the browser's scrollbar only when the header is fixed
 *    (scroll.y) or sticky, the only places that size is used. Measuring appends a probe element
 *    to the page and reads its size, a forced layout of the whole page (/profile's groups table).
 *  - @rc-component/util writes each style antd computes in the browser (a theme's variables, a
 *    component's) as the <style> element's text, not through innerHTML, which ran the HTML parser
 *    for every one.
 * Without either, Lighthouse's mobile blocking time of /profile was about 1.6 times as long
 * (docs/performance.md, "Patched libraries"). The tests below fail when the work they remove comes
 * back, and when an upgrade leaves a patch unapplied.
 */
import { render, screen } from '@testing-library/react';
import { Button, ConfigProvider, Table } from 'antd';
import { join } from 'node:path';
import { installedDir, unapplied } from '../../build/patch-check.cjs';

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

const shared = join(__dirname, '..', '..');


describe('the patches are applied to the packages the build takes', () => {
  // An upgrade of antd or of these packages leaves the patch behind: pnpm then stops on it, unless
  // the patch's entry went too; this fails either way until the patch is made again or dropped.
  it.each([
    ['@rc-component/table', ['antd', '@rc-component/table'], '@rc-component__table@1.11.1.patch'],
    ['@rc-component/util', ['antd', '@rc-component/util'], '@rc-component__util@1.14.1.patch'],
  ])('%s', (_name, path, patch) => {
    const dir = path.reduce((from, name) => installedDir(name, from), shared);
    expect(unapplied(patch, dir)).toEqual([]);
  });
});
