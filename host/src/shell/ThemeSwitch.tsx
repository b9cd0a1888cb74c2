import { chooseTheme, useIsDark } from './theme';

/** A moon (dark on) or a sun (dark off), drawn in the top bar's text colour. */
function Icon({ dark }: { dark: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      {dark ? (
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" fill="currentColor" />
      ) : (
        <>
          <circle cx="12" cy="12" r="4.5" fill="currentColor" />
          <path d="M12 1.5v2.5M12 20v2.5M1.5 12H4M20 12h2.5M4.6 4.6l1.8 1.8M17.6 17.6l1.8 1.8M4.6 19.4l1.8-1.8M17.6 6.4l1.8-1.8" />
        </>
      )}
    </svg>
  );
}

/**
 * The top bar's light/dark switch: a button with the switch role, named 'Dark theme' and checked
 * when the dark theme shows; the choice is remembered by this browser (./theme.ts).
 */
export function ThemeSwitch() {
  const dark = useIsDark();
  return (
    <button
      type="button"
      role="switch"
      aria-checked={dark}
      aria-label="Dark theme"
      title={dark ? 'Dark theme: on' : 'Dark theme: off'}
      className="theme-switch"
      onClick={() => chooseTheme(dark ? 'light' : 'dark')}
    >
      <Icon dark={dark} />
    </button>
  );
}
