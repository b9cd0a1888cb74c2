/**
 * The embedded list engine (PORTAL_LIST_ENGINE=embedded, the default): the portal runs the lists
 * itself. Its roster is the portal's tables (eligibility read from the groups, the members'
 * choices), so creating a list or changing a subscription needs nothing more here; held messages
 * are the held_messages table, filled by the SMTP listener (list-posts.ts); an accepted post goes
 * to the immediate subscribers through the mail outbox and waits for the daily digest.
 */
import {
  addAcceptedSender,
  countHeldMessages,
  deliverPost,
  discardHeldExcept,
  listHeldMessages,
  takeHeldMessages,
} from '../../repositories/mailing-lists.js';
import { postMail } from './post-mail.js';
import { NO_CHANGES, type ListEngine } from './engine.js';

export const embeddedListEngine: ListEngine = {
  name: 'embedded',
  portalDelivers: true,
  async createList() {
    // The list's row is the list.
  },
  async setSubscription() {
    // The member's choice (list_subscriptions) is the subscription.
  },
  async reconcileList() {
    return { ...NO_CHANGES };
  },
  async reconcileAddress() {
    return { ...NO_CHANGES };
  },
  heldCounts: (db, listIds) => countHeldMessages(db, listIds),
  heldMessages: (db, listIds, limit) => listHeldMessages(db, listIds, limit),
  async moderate(tx, list, actions, discardDeferred, at) {
    const taken = new Map((await takeHeldMessages(tx, list.id, actions.map((m) => m.messageId))).map((m) => [m.id, m]));
    let accepted = 0;
    let discarded = 0;
    for (const action of actions) {
      const message = taken.get(action.messageId);
      if (!message) continue; // decided already (another moderator): nothing to do
      if (action.action === 'discard') {
        discarded++;
        continue;
      }
      if (action.action === 'always-accept') await addAcceptedSender(tx, list.id, message.sender, at);
      await deliverPost(tx, list, message, postMail(list, message), at);
      accepted++;
    }
    if (discardDeferred) discarded += await discardHeldExcept(tx, list.id, []);
    return { accepted, discarded };
  },
};
