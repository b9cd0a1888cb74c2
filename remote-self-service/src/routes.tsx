/** remote-self-service: visitors' flows and a signed-in user's own account (architecture.md). */
import { needs, pendingPage, PUBLIC, route, SIGNED_IN, type RemoteModule } from '@portal/shared';

const remote: RemoteModule = {
  name: 'self_service',
  contract: '^1.0.0',
  routes: [
    // Visitors
    route('request-account', 'Sign Up for an account', PUBLIC, pendingPage('Sign Up for an account')),
    route('check-account-request-status', 'Check Account Request Status', PUBLIC, pendingPage('Check Account Request Status')),
    route('request-unlock', 'Request Unlock', PUBLIC, pendingPage('Request Unlock')),
    route('register-cac', 'Register CAC', PUBLIC, pendingPage('Register CAC')),
    route('reset-website-token', 'Generate Website Token', PUBLIC, pendingPage('Generate Website Token')),
    // Signed in
    route('renew-account', 'Renew Your Account', needs('RENEW_ACCOUNT'), pendingPage('Renew Your Account')),
    route('profile', 'User Profile', SIGNED_IN, pendingPage('User Profile')),
    route('update-profile', 'Update Profile', SIGNED_IN, pendingPage('Update Profile')),
    route('subscriptions', 'Subscriptions', needs('VIEW_SUBSCRIPTIONS'), pendingPage('Subscriptions')),
    route('change-email', 'Change Email', needs('CHANGE_EMAIL'), pendingPage('Change Email')),
    route('change-email/:username', 'Change Email', needs('SUBMIT_SURROGATE_REQUEST'), pendingPage('Change Email')),
    route('change-auth-type', 'Request Authentication Type Change', SIGNED_IN, pendingPage('Request Authentication Type Change')),
  ],
};

export default remote;
