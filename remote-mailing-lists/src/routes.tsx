/** remote-mailing-lists: lists, moderation and list requests (docs/architecture.md, "The remotes"; server/docs/mailing-lists.md). */
import { mailingListRequestKind } from '@portal/api/request-kinds/mailing-list';
import { mailingListsPages as pages, pageRoute } from '@portal/api';
import type { RemoteModule } from '@portal/shared';
import { lazyPage } from '@portal/shared/components';
import { queueInfo, queueRoutes } from '@portal/shared/requests';
import { MailingListsPage } from './lists/MailingListsPage';
import { ListMembersPage } from './members/ListMembersPage';
import { HeldMessagesPage } from './queue/HeldMessagesPage';
import { RequestMailingListPage } from './request/RequestMailingListPage';

// The mailing list requests' queue, for adjudicators: a chunk of its own.
const mailingListQueue = () => import('./requests/mailingListQueue');
const mailingListQueuePages = { list: lazyPage(mailingListQueue, 'MailingListRequestsPage'), detail: lazyPage(mailingListQueue, 'MailingListRequestPage') };

const remote: RemoteModule = {
  name: 'mailing_lists',
  contract: '^2.0.0',
  // List pages check group permissions and moderator status themselves (spec section 6): the
  // server answers what the caller may do with each list.
  routes: [
    pageRoute(pages.mailingLists, MailingListsPage),
    pageRoute(pages.newMailingList, RequestMailingListPage),
    pageRoute(pages.mailingList, ListMembersPage),
    pageRoute(pages.mailingListQueue, HeldMessagesPage),
    ...queueRoutes(queueInfo(mailingListRequestKind), mailingListQueuePages),
  ],
};

export default remote;
