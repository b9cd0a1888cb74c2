/** The host's own pages (the shell): signing in and out, the error pages, Manage Remotes. */
import { link, needs, page, PUBLIC, SIGNED_IN } from './page.js';

export const hostPages = {
  login: page('/login', 'Please Sign In', PUBLIC),
  logout: page('/logout', 'Logged Out', PUBLIC),
  notFound: page('/not-found', 'Not Found', PUBLIC),
  notAuthorized: page('/not-authorized', 'Not Authorized', SIGNED_IN),
  manageRemotes: page('/manage-remotes', 'Manage Remotes', needs('MANAGE_REMOTES')),
} as const;

export const hostLinks = {
  login: (redirect?: string) => link(hostPages.login, {}, { redirect }),
  logout: () => link(hostPages.logout, {}),
  notFound: () => link(hostPages.notFound, {}),
  notAuthorized: (redirect?: string) => link(hostPages.notAuthorized, {}, { redirect }),
  manageRemotes: () => link(hostPages.manageRemotes, {}),
};
