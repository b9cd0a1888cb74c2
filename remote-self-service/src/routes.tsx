/** remote-self-service: visitors' flows and a signed-in user's own account (architecture.md). */
import { needs, PUBLIC, type RemoteModule, route, SIGNED_IN } from '@portal/shared';
import { ChangeAuthTypePage } from './pages/change-auth-type/ChangeAuthTypePage';
import { ChangeEmailPage } from './pages/change-email/ChangeEmailPage';
import { ProfilePage } from './pages/profile/ProfilePage';
import { RegisterCacPage } from './pages/register-cac/RegisterCacPage';
import { RenewAccountPage } from './pages/renew-account/RenewAccountPage';
import { RequestAccountPage } from './pages/request-account/RequestAccountPage';
import { ResetWebsiteTokenPage } from './pages/reset-token/ResetWebsiteTokenPage';
import { CheckStatusPage } from './pages/status/CheckStatusPage';
import { SubscriptionsPage } from './pages/subscriptions/SubscriptionsPage';
import { RequestUnlockPage } from './pages/unlock/RequestUnlockPage';
import { UpdateProfilePage } from './pages/update-profile/UpdateProfilePage';

const remote: RemoteModule = {
  name: 'self_service',
  contract: '^1.0.0',
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
