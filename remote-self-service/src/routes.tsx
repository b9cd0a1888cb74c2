/** remote-self-service: visitors' flows and a signed-in user's own account (docs/architecture.md, "The remotes"). */
import { pageRoute, selfServicePages as pages } from '@portal/api';
import type { RemoteModule } from '@portal/shared';
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
    pageRoute(pages.requestAccount, RequestAccountPage),
    pageRoute(pages.checkAccountRequestStatus, CheckStatusPage),
    pageRoute(pages.requestUnlock, RequestUnlockPage),
    pageRoute(pages.registerCac, RegisterCacPage),
    pageRoute(pages.resetWebsiteToken, ResetWebsiteTokenPage),
    // Signed in
    pageRoute(pages.renewAccount, RenewAccountPage),
    pageRoute(pages.profile, ProfilePage),
    pageRoute(pages.updateProfile, UpdateProfilePage),
    pageRoute(pages.subscriptions, SubscriptionsPage),
    pageRoute(pages.changeEmail, ChangeEmailPage),
    pageRoute(pages.changeEmailOf, ChangeEmailPage),
    pageRoute(pages.changeAuthType, ChangeAuthTypePage),
  ],
};

export default remote;
