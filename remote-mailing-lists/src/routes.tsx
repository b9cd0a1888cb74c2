/** remote-mailing-lists: lists, moderation and list requests (architecture.md). */
import { pendingPage, type RemoteModule, route, SIGNED_IN } from '@portal/shared';

const remote: RemoteModule = {
  name: 'mailing_lists',
  contract: '^1.0.0',
  // List pages check group permissions and moderator status themselves (spec section 6).
  routes: [
    route('mailing-lists', 'Mailing Lists', SIGNED_IN, pendingPage('Mailing Lists')),
    route('mailing-lists/new/:groupId', 'Request Mailing List', SIGNED_IN, pendingPage('Request Mailing List')),
    route('mailing-lists/:listId', 'Mailing List Members', SIGNED_IN, pendingPage('Mailing List Members')),
    route('mailing-lists/:listId/queue', 'Held Messages', SIGNED_IN, pendingPage('Held Messages')),
  ],
};

export default remote;
