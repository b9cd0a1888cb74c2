/** remote-self-service: visitors' flows and a signed-in user's own account (docs/architecture.md, "The remotes"). */
import { needs, PUBLIC, type RemoteModule, route, SIGNED_IN } from '@portal/shared';
import { lazyPage } from '@portal/shared/components';
import { ProfilePage } from './account/ProfilePage';

// The pages with a form (and the subscriptions' checkboxes) are chunks of their own: /profile does
// not bring the form stack with the remote's routes (the first page waits for fewer bytes).
const RequestAccountPage = lazyPage(() => import('./visitors/RequestAccountPage'), 'RequestAccountPage');
const ResetWebsiteTokenPage = lazyPage(() => import('./visitors/ResetWebsiteTokenPage'), 'ResetWebsiteTokenPage');
const CheckStatusPage = lazyPage(() => import('./visitors/CheckStatusPage'), 'CheckStatusPage');
const RequestUnlockPage = lazyPage(() => import('./visitors/RequestUnlockPage'), 'RequestUnlockPage');
const RegisterCacPage = lazyPage(() => import('./visitors/RegisterCacPage'), 'RegisterCacPage');
const RenewAccountPage = lazyPage(() => import('./account/RenewAccountPage'), 'RenewAccountPage');
const UpdateProfilePage = lazyPage(() => import('./account/UpdateProfilePage'), 'UpdateProfilePage');
const SubscriptionsPage = lazyPage(() => import('./account/SubscriptionsPage'), 'SubscriptionsPage');
const ChangeEmailPage = lazyPage(() => import('./account/ChangeEmailPage'), 'ChangeEmailPage');
const ChangeAuthTypePage = lazyPage(() => import('./account/ChangeAuthTypePage'), 'ChangeAuthTypePage');

const remote: RemoteModule = {
  name: 'self_service',
  contract: '^2.0.0',
  routes: [
    // Visitors
    route('request-account', 'Sign Up for an account', PUBLIC, RequestAccountPage),
    route('check-account-request-status', 'Check Account Request Status', PUBLIC, CheckStatusPage),
    route('request-unlock', 'Request Unlock', PUBLIC, RequestUnlockPage),
    route('register-cac', 'Register CAC', PUBLIC, RegisterCacPage),
    route('reset-website-token', 'Generate Website Token', PUBLIC, ResetWebsiteTokenPage),
    // Signed in
    route('renew-account', 'Renew Your Account', needs('RENEW_ACCOUNT'), RenewAccountPage),
    route('profile', 'User Profile', SIGNED_IN, ProfilePage),
    route('update-profile', 'Update Profile', needs('allow-profilechange'), UpdateProfilePage),
    route('subscriptions', 'Subscriptions', needs('VIEW_SUBSCRIPTIONS'), SubscriptionsPage),
    route('change-email', 'Change Email', needs('CHANGE_EMAIL'), ChangeEmailPage),
    route('change-email/:username', 'Change Email', needs('SUBMIT_SURROGATE_REQUEST'), ChangeEmailPage),
    route('change-auth-type', 'Request Authentication Type Change', needs('allow-authchange'), ChangeAuthTypePage),
  ],
};

export default remote;
