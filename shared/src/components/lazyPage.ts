import { lazy, type ComponentType } from 'react';

/**
 * A remote's page loaded when it is first shown, as a chunk of its own: a page with a
 * form brings the form stack (@portal/shared/forms and what it needs), which the remote's pages
 * without one (/profile, the tables) then do not download with the remote's routes. The host
 * shows its loading state meanwhile (each page is rendered inside a Suspense boundary).
 *
 *   route('update-profile', 'Update Profile', needs('allow-profilechange'), lazyPage(() => import('./account/UpdateProfilePage'), 'UpdateProfilePage'))
 */
export function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): ComponentType {
  return lazy(() => load().then((module): { default: ComponentType } => ({ default: module[name] })));
}
