/**
 * Light or dark (docs/decisions.md, "`css_theme` and the light/dark switch"): the reader's own choice, made with the top bar's
 * switch and remembered by this browser (local storage), else the configured `css_theme` ('light'
 * or 'dark'), else the reader's system setting.
 *
 * The choice is also written to a cookie, which the server reads to paint the first frame of the
 * next page (index.html, before any script runs: no inline script may read local storage there,
 * the page's policy allows none) in the chosen theme: server/src/routes/host.ts, `themeFrame`.
 */
import { useConfiguration } from '@portal/shared';
import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'light' | 'dark';

/** Where the choice is remembered (local storage), beside the sign-in page's preferences. */
export const THEME_KEY = 'portal.theme';
/** The cookie the server reads for the first frame (server/src/routes/host.ts, THEME_COOKIE). */
export const THEME_COOKIE = 'portal-theme';
/** A year: the choice outlives sessions. */
const COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

const SYSTEM_DARK = '(prefers-color-scheme: dark)';

const isChoice = (value: unknown): value is ThemeChoice => value === 'light' || value === 'dark';

/** The remembered choice; undefined when there is none (or storage is closed to the page). */
export function rememberedTheme(): ThemeChoice | undefined {
  try {
    const value = window.localStorage.getItem(THEME_KEY);
    return isChoice(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The cookie of the choice, for the server's first frame of the next page. */
export function writeThemeCookie(choice: ThemeChoice): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${THEME_COOKIE}=${choice}; Path=/; Max-Age=${COOKIE_MAX_AGE}; SameSite=Lax${secure}`;
}

const listeners = new Set<() => void>();

/** Remembers the choice (this browser) and applies it to every mounted theme at once. */
export function chooseTheme(choice: ThemeChoice): void {
  try {
    window.localStorage.setItem(THEME_KEY, choice);
  } catch {
    // private mode or storage full: the choice holds for this page only
  }
  writeThemeCookie(choice);
  for (const listener of listeners) listener();
}

function subscribeChoice(onChange: () => void): () => void {
  listeners.add(onChange);
  // Another tab's choice applies here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}

function subscribeSystem(onChange: () => void): () => void {
  const media = window.matchMedia(SYSTEM_DARK);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

export function useThemeChoice(): ThemeChoice | undefined {
  return useSyncExternalStore(subscribeChoice, rememberedTheme, () => undefined);
}

/** The reader's choice decides; without one, css_theme 'dark' or 'light'; unset ('undefined'), the system setting. */
export function useIsDark(): boolean {
  const { css_theme } = useConfiguration();
  const choice = useThemeChoice();
  const systemDark = useSyncExternalStore(subscribeSystem, () => window.matchMedia(SYSTEM_DARK).matches, () => false);
  if (choice) return choice === 'dark';
  return css_theme === 'dark' || (css_theme !== 'light' && systemDark);
}
