/**
 * antd's styles written at build time (../build/antd-static-styles.cjs): the host's build
 * renders the portal's antd set and writes what the components registered to a CSS file, which
 * antd then uses instead of computing those styles in the browser. This runs the same extraction
 * the build runs and checks what the file must be for that to hold: a style for every component of
 * the set, unhashed as the portal's themes are, and none of a theme's variables (each theme's
 * are the ConfigProvider's, written in the browser: one file serves the light and the dark theme).
 */
import { join } from 'node:path';
import { REPO_DIR } from './app-sources';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build helpers are CommonJS, as webpack runs them
const { extractAntdStyles } = require('../build/antd-static-styles.cjs') as { extractAntdStyles(appDir: string, mode: 'production' | 'development'): string };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const { antdParts } = require('../build/antd-imports-loader.cjs') as { antdParts(): Map<string, string> };

const HOST = join(REPO_DIR, 'host');

/** The style paths the file lists (`hash|Component-part|prefix|icon prefix`), as antd reads them. */
function listedPaths(css: string): string[] {
  const list = /\.data-ant-cssinjs-cache-path\{content:"([^"]*)";\}/.exec(css);
  if (!list?.[1]) throw new Error('The file does not end with the list of its style paths.');
  return list[1].split(';').map((entry) => entry.slice(0, entry.lastIndexOf(':')));
}

describe('antd styles written at build time', () => {
  let css: string;
  beforeAll(() => {
    css = extractAntdStyles(HOST, 'production');
  }, 60_000);

  it('holds a style for every component of the portal antd set, and for message', () => {
    const components = new Set(listedPaths(css).map((path) => path.split('|')[1]?.split('-')[0]));
    const notComponents = ['ConfigProvider', 'theme'];
    const wanted = [...antdParts().keys()].filter((name) => !notComponents.includes(name)).map((name) => name[0]!.toUpperCase() + name.slice(1));
    expect(wanted.filter((name) => !components.has(name))).toEqual([]);
    expect(components.has('Message')).toBe(true);
    // Sub-styles the portal's pages use: preset-coloured and status tags, the compact button group.
    expect(listedPaths(css).map((path) => path.split('|')[1])).toEqual(expect.arrayContaining(['Tag-preset', 'Tag-status', 'Button-compact', 'Form-item-item']));
  });

  it("writes each component's base style for the root class the component carries in the browser (an open dialog: .ant-modal-css-var)", () => {
    // antd keys a style by its component, not by the root class its base rule names: rendered as
    // the panel antd makes for tests, the dialog's base rule named .ant-css-var, and the browser,
    // finding the style in the file, gave an open dialog the page's 16 px text and content-box sizing.
    expect(css).toContain('.ant-modal-css-var{font-family:var(--ant-font-family);font-size:var(--ant-font-size);box-sizing:border-box;}');
    expect(css).not.toContain('.ant-css-var{');
    for (const name of ['select', 'checkbox', 'radio', 'input', 'form', 'tabs', 'table', 'menu']) expect(css).toContain(`.ant-${name}-css-var{`);
  });

  it("is unhashed, as the portal's themes are (host/src/shell/themes.ts): no path carries a class hash, no selector a :where() scope", () => {
    // A hashed path would never match the browser's unhashed ones: antd would compute every style again.
    expect(listedPaths(css).filter((path) => path.split('|')[0] !== '')).toEqual([]);
    expect(css).not.toContain(':where(.css-');
    expect(css).toMatch(/(^|\})\.ant-btn\{/);
  });

  it('carries no theme variables: their values are written per theme in the browser', () => {
    // A component's styles refer to the tokens (var(--ant-color-primary)); only a theme defines them.
    expect(css).toContain('var(--ant-color-primary)');
    expect(css).not.toMatch(/--ant-color-primary\s*:/);
    expect(css).not.toMatch(/\.css-var-[^{]*\{--ant-/);
  });
});
