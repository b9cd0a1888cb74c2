/**
 * The top bar's light/dark switch: keyboard reachable with an accessible name, its default the
 * configured css_theme (the system setting when css_theme names neither), the reader's choice
 * remembered by this browser (local storage) and written to the cookie the server paints the next
 * page's first frame with.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_CONFIGURATION, type PortalConfiguration } from '@portal/api';
import { useConfigurationStore } from '@portal/shared';
import { THEME_COOKIE, THEME_KEY } from './theme';
import { ThemeSwitch } from './ThemeSwitch';

function configure(css_theme: PortalConfiguration['css_theme']) {
  useConfigurationStore.setState({ status: 'ready', loaded: true, config: { ...DEFAULT_CONFIGURATION, css_theme } });
}

/** The system setting as matchMedia answers it. */
function systemDark(dark: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: dark && query === '(prefers-color-scheme: dark)',
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

const theSwitch = () => screen.getByRole('switch', { name: 'Dark theme' });

beforeEach(() => {
  window.localStorage.clear();
  document.cookie = `${THEME_COOKIE}=; Path=/; Max-Age=0`;
  systemDark(false);
});

describe('the light/dark switch', () => {
  it.each([
    ['dark', false, true],
    ['light', true, false],
    ['undefined', true, true],
    ['undefined', false, false],
  ] as const)('with css_theme %s and a system setting dark=%s, and nothing remembered, starts dark=%s', (cssTheme, system, dark) => {
    configure(cssTheme);
    systemDark(system);
    render(<ThemeSwitch />);
    expect(theSwitch()).toHaveAttribute('aria-checked', String(dark));
  });

  it('is reached with Tab and switched with the keyboard; the choice is remembered by this browser and written to the cookie', async () => {
    configure('undefined');
    const user = userEvent.setup();
    render(<ThemeSwitch />);
    await user.tab();
    expect(theSwitch()).toHaveFocus();
    await user.keyboard(' ');
    expect(theSwitch()).toHaveAttribute('aria-checked', 'true');
    expect(window.localStorage.getItem(THEME_KEY)).toBe('dark');
    expect(document.cookie).toContain(`${THEME_COOKIE}=dark`);
    await user.keyboard('{Enter}');
    expect(theSwitch()).toHaveAttribute('aria-checked', 'false');
    expect(window.localStorage.getItem(THEME_KEY)).toBe('light');
    expect(document.cookie).toContain(`${THEME_COOKIE}=light`);
  });

  it("a remembered choice wins over css_theme and the system setting", () => {
    configure('dark');
    systemDark(true);
    window.localStorage.setItem(THEME_KEY, 'light');
    render(<ThemeSwitch />);
    expect(theSwitch()).toHaveAttribute('aria-checked', 'false');
  });
});
