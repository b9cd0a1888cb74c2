/**
 * The portal's pages by name, for links from any app: each remote's builders, from its pages'
 * module (pages/<remote>.ts), where each path is written once, beside its title and permission.
 * The request queues' paths are their kinds' (requests/kinds/<kind>.ts, `queue.path`).
 */
import { adjudicationLinks } from './pages/adjudication.js';
import { groupsLinks } from './pages/groups.js';
import { hostLinks } from './pages/host.js';
import { mailingListsLinks } from './pages/mailing-lists.js';
import { selfServiceLinks } from './pages/self-service.js';
import { tokensLinks } from './pages/tokens.js';

export const links = {
  ...hostLinks,
  ...selfServiceLinks,
  ...groupsLinks,
  ...adjudicationLinks,
  ...mailingListsLinks,
  ...tokensLinks,
} as const;
