// @ts-check
/**
 * antd's component styles written at build time, so that the browser does not compute them as the first page starts (its blocking time).
 *
 * antd computes each component's CSS in the browser the first time the component renders (its
 * style objects, serialised, hashed and injected as <style> elements): on a phone's CPU that is
 * a good part of the first page's blocking time. @ant-design/cssinjs can instead take the styles
 * from a CSS file: the file ends with a rule listing the style paths it holds
 * (`.data-ant-cssinjs-cache-path{content:"…"}`), and a component whose path is listed is not styled
 * again at run time. A component missing from the file is styled at run time as before, so the
 * file can only save work, never lose a style.
 *
 * The host's build renders every component of the portal's antd set (../src/antd-*.ts) with
 * react-dom/server, in a child process (antd's class prefix depends on NODE_ENV, read when antd
 * loads: `css` in production, as in the browser), and writes what they registered to
 * `antd.[contenthash].css`, linked from index.html before the page's own styles. With CSS
 * variables (antd 6's default) a component's styles refer to the theme's tokens by variable, so one
 * file serves the light and the dark theme; the variables themselves (each theme's token values)
 * are still written at run time by the ConfigProvider, as before. The styles are unhashed
 * (`theme.hashed: false`, as host/src/shell/themes.ts has it): no selector carries antd's
 * `:where(.css-<hash>)` scope, which keeps several antd versions on one page apart, and the
 * portal has one. The file is a sixth smaller for it (543 → 446 KB, 36.8 → 35.4 KB brotli).
 */
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const path = require('node:path');

const { ANTD_PARTS, antdParts } = require('./antd-imports-loader.cjs');

/** The set's names that are not components: nothing of their own to style. */
const NOT_RENDERED = new Set(['ConfigProvider', 'theme']);

/**
 * How to render a component of the set so that it registers the styles the portal's pages use
 * (its parts and sub-components as well). A component not listed renders with no props.
 * @param {typeof import('react')} React
 * @param {any} antd
 * @returns {Record<string, () => import('react').ReactNode>}
 */
function renderers(React, antd) {
  const h = React.createElement;
  const { Button, Checkbox, Form, Input, Layout, List, Menu, Modal, Radio, Select, Space, Table, Tabs, Typography } = antd;
  return {
    Alert: () => h(antd.Alert, { type: 'error', title: 'Alert', description: 'Description', showIcon: true }),
    App: () => h(antd.App, null, 'App'),
    Button: () => h(Space.Compact, null, h(Button, { type: 'primary' }, 'Primary'), h(Button, { danger: true }, 'Danger')),
    Card: () => h(antd.Card, { title: 'Card', extra: 'Extra' }, 'Body'),
    Checkbox: () => h(Checkbox.Group, { options: ['A'] }),
    Collapse: () => h(antd.Collapse, { items: [{ key: 'a', label: 'Label', children: 'Body' }] }),
    Descriptions: () => h(antd.Descriptions, { bordered: true, title: 'Title', items: [{ key: 'a', label: 'Label', children: 'Value' }] }),
    Form: () =>
      h(
        Form,
        { layout: 'vertical' },
        h(Form.Item, { label: 'Label', name: 'name', required: true, help: 'Help', validateStatus: 'error', hasFeedback: true }, h(Input)),
      ),
    Input: () => [h(Input, { key: 'i' }), h(Input.Password, { key: 'p' }), h(Input.TextArea, { key: 't' }), h(Input.Search, { key: 's' }), h(Input.OTP, { key: 'o' })],
    Layout: () => h(Layout, null, h(Layout.Header), h(Layout, null, h(Layout.Sider, { collapsible: true }), h(Layout.Content)), h(Layout.Footer)),
    List: () => h(List, { dataSource: ['Item'], renderItem: (/** @type {string} */ item) => h(List.Item, null, h(List.Item.Meta, { title: item })) }),
    Menu: () => h(Menu, { mode: 'inline', items: [{ type: 'group', label: 'Group', children: [{ key: 'a', label: 'Item' }] }, { key: 's', label: 'Sub', children: [{ key: 'b', label: 'Item' }] }] }),
    // Modal itself first (open; on the server its portal draws nothing, but it registers its
    // styles as the browser's dialog does, for the root class that dialog carries:
    // .ant-modal-css-var), then the confirm dialog's own styles through the panel antd renders
    // for this purpose. The panel first wrote the dialog's base style for another root class
    // (.ant-css-var): an open dialog then had the page's 16 px text and content-box sizing.
    Modal: () => [h(Modal, { key: 'o', open: true, title: 'Title' }, 'Body'), h(Modal._InternalPanelDoNotUseOrYouWillBeFired, { key: 'c', type: 'confirm', title: 'Title' })],
    Radio: () => [h(Radio.Group, { key: 'r', options: ['A'] }), h(Radio.Group, { key: 'b', optionType: 'button', options: ['B'] })],
    Result: () => h(antd.Result, { status: 'error', title: 'Result' }),
    Select: () => h(Select, { options: [{ value: 'a', label: 'A' }] }),
    Table: () =>
      h(Table, {
        rowSelection: {},
        columns: [{ title: 'Name', dataIndex: 'name', sorter: true }],
        dataSource: [{ key: 1, name: 'Row' }],
        pagination: { total: 100, showSizeChanger: true },
      }),
    Tabs: () => h(Tabs, { items: [{ key: 'a', label: 'Tab', children: 'Body' }] }),
    // A preset colour and a status: each kind registers the styles of all its colours.
    Tag: () => [h(antd.Tag, { key: 'p', color: 'blue' }, 'Tag'), h(antd.Tag, { key: 's', color: 'success' }, 'Tag')],
    Typography: () => [h(Typography.Title, { key: 't' }, 'Title'), h(Typography.Paragraph, { key: 'p' }, 'Text'), h(Typography.Text, { key: 'x', type: 'secondary' }, 'Text'), h(Typography.Link, { key: 'l' }, 'Link')],
    // message (App.useApp) and its notices.
    message: () => h(antd.message._InternalPanelDoNotUseOrYouWillBeFired, { type: 'success', content: 'Saved' }),
  };
}

/**
 * Renders the set in this process (run by extractAntdStyles with NODE_ENV set) and returns the CSS:
 * the component styles and the list of their paths, without the theme's variables.
 * @param {string} appDir the app whose antd, react and react-dom are used
 */
function renderSetStyles(appDir) {
  const resolve = (/** @type {string} */ request, from = appDir) => require(require.resolve(request, { paths: [from] }));
  const antdDir = path.dirname(require.resolve('antd/package.json', { paths: [appDir] }));
  /** @type {typeof import('react')} */
  const React = resolve('react');
  const { renderToString } = resolve('react-dom/server');
  const antd = resolve('antd');
  // The cssinjs antd itself uses (its own dependency), so that its components register in this cache.
  const { createCache, extractStyle, StyleProvider } = resolve('@ant-design/cssinjs', antdDir);
  const render = renderers(React, antd);
  const cache = createCache();
  for (const name of [...antdParts().keys(), 'message']) {
    if (NOT_RENDERED.has(name)) continue;
    const node = render[name] ? render[name]() : React.createElement(antd[name]);
    try {
      // Unhashed, as the portal's themes are (host/src/shell/themes.ts): one antd on the page.
      renderToString(React.createElement(StyleProvider, { cache }, React.createElement(antd.ConfigProvider, { theme: { hashed: false } }, node)));
    } catch (error) {
      throw new Error(`antd's ${name} could not be rendered for its styles: give it a renderer in shared/build/antd-static-styles.cjs (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  // 'style' only: the theme's variables (token and cssVar) stay the ConfigProvider's, per theme.
  return extractStyle(cache, { plain: true, types: 'style' });
}

/**
 * The set's styles as antd would register them in a build of `mode` (its class prefix differs).
 * @param {string} appDir
 * @param {'production' | 'development'} mode
 * @returns {string}
 */
function extractAntdStyles(appDir, mode) {
  try {
    return execFileSync(process.execPath, [__filename, appDir], {
      env: { ...process.env, NODE_ENV: mode },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      // What the child says (antd's deprecation warnings) is shown only when it fails.
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const said = /** @type {{ stderr?: string }} */ (error).stderr?.trim().split('\n').filter((line) => /Error/.test(line)).slice(-3).join('\n');
    throw new Error(`antd's styles could not be written at build time: ${said || (error instanceof Error ? error.message : String(error))}`);
  }
}

/**
 * Emits antd.[contenthash].css and links it from index.html, first in <head> (before the page's
 * own <style>, which overrides a few of antd's rules, as it did when antd's styles were injected
 * at the top of <head>). Needs html-webpack-plugin (the host's).
 */
class AntdStaticStylesPlugin {
  /** @param {{ appDir: string, htmlWebpackPlugin: any }} options */
  constructor({ appDir, htmlWebpackPlugin }) {
    this.appDir = appDir;
    this.htmlWebpackPlugin = htmlWebpackPlugin;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const mode = compiler.options.mode === 'development' ? 'development' : 'production';
    /** @type {string | undefined} */
    let css;
    compiler.hooks.thisCompilation.tap('AntdStaticStylesPlugin', (compilation) => {
      // A child compilation (none today) has no page of its own.
      if (compilation.compiler !== compiler) return;
      // Once per build process: the set's styles change only with antd or the set's files.
      css ??= extractAntdStyles(this.appDir, mode);
      const hash = createHash('sha256').update(css).digest('hex').slice(0, 16);
      const fileName = `antd.${hash}.css`;
      for (const { file } of ANTD_PARTS) compilation.fileDependencies.add(file);
      // After the source maps are made (DEV_TOOLING): the file has nothing to map.
      compilation.hooks.processAssets.tap({ name: 'AntdStaticStylesPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_DEV_TOOLING + 1 }, () => {
        // Marked minimized: it is antd's own compact output, and webpack's CSS minifier (on by
        // default since its built-in CSS support, and handed assets emitted after it ran) dropped
        // the space before a `-` in calc() inside custom properties, which makes them invalid: the
        // Select's padding was lost (24 px tall, its text against its left border) and a Spin's dot size.
        compilation.emitAsset(fileName, new compiler.webpack.sources.RawSource(/** @type {string} */ (css)), { minimized: true });
      });
      this.htmlWebpackPlugin.getHooks(compilation).beforeEmit.tap('AntdStaticStylesPlugin', (/** @type {{ html: string }} */ data) => {
        const publicPath = String(compilation.outputOptions.publicPath ?? '/');
        const link = `<link rel="stylesheet" href="${publicPath}${fileName}" />`;
        const at = data.html.search(/<style[\s>]/);
        if (at < 0) throw new Error('index.html has no <style> in its <head>: the antd styles are linked just before it.');
        data.html = `${data.html.slice(0, at)}${link}\n    ${data.html.slice(at)}`;
        return data;
      });
    });
  }
}

module.exports = { AntdStaticStylesPlugin, extractAntdStyles };

// Run by extractAntdStyles: the CSS on standard output.
if (require.main === module) {
  const appDir = process.argv[2];
  if (!appDir) throw new Error('usage: node antd-static-styles.cjs APP_DIR');
  process.stdout.write(renderSetStyles(appDir));
}
