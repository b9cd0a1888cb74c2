/** Every screen of the portal at a concrete demo address, walked by a11y-every-screen.spec.ts. */

/** Every route of every remote, at a concrete URL, with the heading it shows. */
export const ROUTES: Record<string, [path: string, heading: string, visitor?: 'visitor'][]> = {
  'remote-self-service': [
    ['/request-account', 'Sign Up for an account', 'visitor'],
    ['/check-account-request-status', 'Check Account Request Status', 'visitor'],
    ['/request-unlock', 'Request Unlock', 'visitor'],
    ['/register-cac', 'Register CAC', 'visitor'],
    ['/reset-website-token', 'Generate Website Token', 'visitor'],
    ['/profile', 'User Profile: admin'],
    ['/update-profile', 'Update Profile'],
    ['/subscriptions', 'Subscriptions'],
    ['/change-email', 'Change Email'],
    ['/change-email/user', 'Change Email'],
    ['/change-auth-type', 'Request Authentication Type Change'],
  ],
  'remote-groups': [
    // The demo's groups: PORTAL (admin is its admin), DEVOPS (open access).
    ['/groups', 'Groups'],
    ['/request-user-group', 'Request User Group'],
    ['/edit-usergroup-details/PORTAL', 'Edit User Group Details: PORTAL'],
    ['/request-membership/DEVOPS', 'Request Membership: DEVOPS'],
    ['/request-membership/PORTAL/user', 'Request Membership: PORTAL'],
    ['/change-membership/PORTAL/user', 'Change Membership: PORTAL'],
    ['/group-administration/PORTAL', 'Group Administration: PORTAL'],
    ['/group-administration/PORTAL/999999', 'Group Administration: PORTAL'],
    ['/add-user-to-group/PORTAL/user', 'Add User To Group PORTAL'],
    // The user group requests' queue (the demo has none open: an unknown one shows Not Found in place).
    ['/list-user-group-requests', 'User Group Requests'],
    ['/list-user-group-requests/999999', 'Not Found'],
  ],
  'remote-adjudication': [
    // The demo has no requests in these queues: an unknown request shows the Not Found view in
    // its page's place, at its own address (a route the remote did not claim would go to /not-found).
    ['/manage-accounts', 'Search Accounts'],
    ['/manage-accounts/user', 'Account Administration'],
    ['/list-account-requests', 'New Account Requests'],
    ['/list-account-requests/999999', 'Not Found'],
    ['/list-denied-account-requests', 'Denied Account Requests'],
    ['/list-authentication-change-requests', 'Authentication Change Requests'],
    ['/list-authentication-change-requests/999999', 'Not Found'],
    ['/list-email-change-requests', 'Email Change Requests'],
    ['/list-email-change-requests/999999', 'Not Found'],
    ['/list-unlock-account-requests', 'Unlock Account Requests'],
    ['/list-unlock-account-requests/999999', 'Not Found'],
    // The demo portal provisions no directory: the page says no target is configured.
    ['/provisioning', 'Provisioning'],
  ],
  'remote-mailing-lists': [
    ['/mailing-lists', 'Mailing Lists'],
    ['/mailing-lists/new/PORTAL', 'Request Mailing List'],
    ['/mailing-lists/portal-dev@example.test', 'Mailing List Members'],
    ['/mailing-lists/portal-dev@example.test/queue', 'Held Messages'],
    // The mailing list requests' queue.
    ['/list-mailing-list-requests', 'Mailing List Requests'],
    ['/list-mailing-list-requests/999999', 'Not Found'],
  ],
  'remote-tokens': [
    ['/tokens/artifactory', 'Artifactory Access Tokens'],
    ['/tokens/services', 'Service Tokens'],
  ],
};
