/** remote-self-service: visitors' flows and a signed-in user's own account (architecture.md). */
import { needs, PUBLIC, type RemoteModule, route, SIGNED_IN } from '@portal/shared';
import { ChangeAuthTypePage } from './account/ChangeAuthTypePage';
import { ChangeEmailPage } from './account/ChangeEmailPage';
import { ProfilePage } from './account/ProfilePage';
import { RenewAccountPage } from './account/RenewAccountPage';
import { SubscriptionsPage } from './account/SubscriptionsPage';
import { UpdateProfilePage } from './account/UpdateProfilePage';
import { CheckStatusPage } from './visitors/CheckStatusPage';
import { RegisterCacPage } from './visitors/RegisterCacPage';
import { RequestAccountPage } from './visitors/RequestAccountPage';
import { RequestUnlockPage } from './visitors/RequestUnlockPage';
import { ResetWebsiteTokenPage } from './visitors/ResetWebsiteTokenPage';

const remote: RemoteModule = {
  name: 'self_service',
  contract: '^1.2.0',
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
