/** Leaves the portal for another site of the platform (a module of its own so that tests can see where it went). */
export function openExternal(href: string): void {
  window.location.assign(href);
}
