/** remote-self-service's sidebar entries (spec section 2): My Profile and Subscriptions. */
import { pageEntry, selfServicePages } from '@portal/api';

export const navigation = [
  pageEntry(selfServicePages.profile, { section: 'main', order: 10, label: 'My Profile' }),
  pageEntry(selfServicePages.subscriptions, { section: 'main', order: 20, label: 'Subscriptions' }),
];
