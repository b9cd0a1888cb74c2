/**
 * What an app's brought antd components are drawn through (`"portal": { "brings": [...] }` in its
 * package.json; shared/build/antd-imports-loader.cjs). A brought component is the app's own copy
 * of antd, not the portal's: it reads its theme from its own copy's context, which no
 * ConfigProvider of the host's sets, so alone it would draw in antd's default light theme inside
 * the portal's dark one. This wraps it in its own copy's ConfigProvider, given the theme's tokens as
 * the portal's ConfigProvider has them where it is drawn (light or dark, and after a switch).
 *
 * Bundled into each app that brings a component (this subpath is not shared), and built only
 * there: the portal's pages pay nothing for it.
 */
import { theme } from 'antd';
import { ConfigProvider as OwnConfigProvider } from 'antd/es/index.js';
import type { ThemeConfig } from 'antd';
import { useMemo, type ComponentType, type JSX } from 'react';

type AliasToken = ReturnType<typeof theme.useToken>['token'];

/** The theme's token values, its internal keys ('_tokenKey', '_hashId') aside. */
function tokensOf(token: AliasToken): NonNullable<ThemeConfig['token']> {
  return Object.fromEntries(Object.entries(token).filter(([key]) => !key.startsWith('_')));
}

/** The brought component, drawn with the portal's theme; its sub-components (`Select.Option` …) kept. */
export function withPortalTheme<C extends ComponentType<never>>(Own: C): C {
  const Component = Own as unknown as ComponentType<Record<string, unknown>>;
  function Themed(props: Record<string, unknown>): JSX.Element {
    const { token } = theme.useToken();
    const ownTheme = useMemo<ThemeConfig>(() => ({ token: tokensOf(token) }), [token]);
    return (
      <OwnConfigProvider theme={ownTheme}>
        <Component {...props} />
      </OwnConfigProvider>
    );
  }
  Themed.displayName = `Brought(${Component.displayName ?? Component.name ?? 'component'})`;
  // Its sub-components only: a forwardRef's own fields ($$typeof, render) are not a function's.
  const members = Object.entries(Own).filter(([key]) => /^[A-Z]/.test(key));
  return Object.assign(Themed, Object.fromEntries(members)) as unknown as C;
}
