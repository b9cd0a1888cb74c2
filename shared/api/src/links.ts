/**
 * The portal's pages, one typed builder per route of the spec (section 2): the host and every
 * remote link with these, so that no path literal crosses a remote's boundary. A segment is
 * always encoded; the environment manifest's route prefixes are the first segments here.
 */
const seg = (value: string | number) => encodeURIComponent(String(value));
const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.append(key, value);
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
};

export const links = {
  // host
  login: (redirect?: string) => withQuery('/login', { redirect }),
  logout: () => '/logout',
  notFound: () => '/not-found',
  notAuthorized: (redirect?: string) => withQuery('/not-authorized', { redirect }),
  manageRemotes: () => '/manage-remotes',
  // remote-self-service: visitors
  requestAccount: () => '/request-account',
  checkAccountRequestStatus: () => '/check-account-request-status',
  requestUnlock: () => '/request-unlock',
  registerCac: () => '/register-cac',
  resetWebsiteToken: () => '/reset-website-token',
  renewAccount: () => '/renew-account',
  // remote-self-service: signed in
  profile: () => '/profile',
  updateProfile: () => '/update-profile',
  subscriptions: (service?: string) => withQuery('/subscriptions', { service }),
  changeEmail: (username?: string) => (username === undefined ? '/change-email' : `/change-email/${seg(username)}`),
  changeAuthType: () => '/change-auth-type',
  // remote-groups
  groups: () => '/groups',
  requestUserGroup: () => '/request-user-group',
  editUserGroupDetails: (groupId: string) => `/edit-usergroup-details/${seg(groupId)}`,
  requestMembership: (groupId: string, username?: string, groups?: readonly string[]) =>
    withQuery(username === undefined ? `/request-membership/${seg(groupId)}` : `/request-membership/${seg(groupId)}/${seg(username)}`, {
      groups: groups?.join(','),
    }),
  changeMembership: (groupId: string, username?: string) =>
    username === undefined ? `/change-membership/${seg(groupId)}` : `/change-membership/${seg(groupId)}/${seg(username)}`,
  groupAdministration: (groupId: string, requestId?: number | string) =>
    requestId === undefined ? `/group-administration/${seg(groupId)}` : `/group-administration/${seg(groupId)}/${seg(requestId)}`,
  addUserToGroup: (groupId: string, username?: string) =>
    username === undefined ? `/add-user-to-group/${seg(groupId)}` : `/add-user-to-group/${seg(groupId)}/${seg(username)}`,
  // remote-adjudication (the queues' own paths are in each kind's file, requests/kinds/)
  manageAccounts: (username?: string) => (username === undefined ? '/manage-accounts' : `/manage-accounts/${seg(username)}`),
  requestQueue: (queuePath: string, requestId?: number | string) => (requestId === undefined ? queuePath : `${queuePath}/${seg(requestId)}`),
  provisioning: () => '/provisioning',
  // remote-mailing-lists
  mailingLists: () => '/mailing-lists',
  newMailingList: (groupId: string) => `/mailing-lists/new/${seg(groupId)}`,
  mailingList: (listId: string) => `/mailing-lists/${seg(listId)}`,
  mailingListQueue: (listId: string) => `/mailing-lists/${seg(listId)}/queue`,
  // remote-tokens
  artifactTokens: () => '/tokens/artifactory',
  serviceTokens: () => '/tokens/services',
} as const;
