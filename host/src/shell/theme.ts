import { useConfiguration } from '@portal/shared';
import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/** css_theme 'dark' or 'light' decides; unset ('undefined') follows the reader's system setting. */
export function useIsDark(): boolean {
  const { css_theme } = useConfiguration();
  const systemDark = useSyncExternalStore(subscribe, () => window.matchMedia(QUERY).matches, () => false);
  return css_theme === 'dark' || (css_theme !== 'light' && systemDark);
}
