/** remote-self-service's pages: visitors' flows and a signed-in user's own account (spec section 2). */
import { link, needs, page, PUBLIC, SIGNED_IN } from './page.js';

export const selfServicePages = {
  // Visitors
  requestAccount: page('/request-account', 'Sign Up for an account', PUBLIC),
  checkAccountRequestStatus: page('/check-account-request-status', 'Check Account Request Status', PUBLIC),
  requestUnlock: page('/request-unlock', 'Request Unlock', PUBLIC),
  registerCac: page('/register-cac', 'Register CAC', PUBLIC),
  resetWebsiteToken: page('/reset-website-token', 'Generate Website Token', PUBLIC),
  // Signed in
  renewAccount: page('/renew-account', 'Renew Your Account', needs('RENEW_ACCOUNT')),
  profile: page('/profile', 'User Profile', SIGNED_IN),
  updateProfile: page('/update-profile', 'Update Profile', needs('allow-profilechange')),
  subscriptions: page('/subscriptions', 'Subscriptions', needs('VIEW_SUBSCRIPTIONS')),
  changeEmail: page('/change-email', 'Change Email', needs('CHANGE_EMAIL')),
  changeEmailOf: page('/change-email/:username', 'Change Email', needs('SUBMIT_SURROGATE_REQUEST')),
  changeAuthType: page('/change-auth-type', 'Request Authentication Type Change', needs('allow-authchange')),
} as const;

const p = selfServicePages;
export const selfServiceLinks = {
  requestAccount: () => link(p.requestAccount, {}),
  checkAccountRequestStatus: () => link(p.checkAccountRequestStatus, {}),
  requestUnlock: () => link(p.requestUnlock, {}),
  registerCac: () => link(p.registerCac, {}),
  resetWebsiteToken: () => link(p.resetWebsiteToken, {}),
  renewAccount: () => link(p.renewAccount, {}),
  profile: () => link(p.profile, {}),
  updateProfile: () => link(p.updateProfile, {}),
  subscriptions: (service?: string) => link(p.subscriptions, {}, { service }),
  /** One's own address, or (a surrogate) another account's. */
  changeEmail: (username?: string) => (username === undefined ? link(p.changeEmail, {}) : link(p.changeEmailOf, { username })),
  changeAuthType: () => link(p.changeAuthType, {}),
};
