/** PORTAL_LIST_ENGINE: the portal itself, or a Mailman 3 core (server/docs/mailing-lists.md). */
import type { ServerSettings } from '../../config.js';
import { embeddedListEngine } from './embedded.js';
import type { ListEngine } from './engine.js';
import { createMailmanEngine } from './mailman.js';

export function listEngineOf(server: Pick<ServerSettings, 'listEngine' | 'mailmanUrl' | 'mailmanUser' | 'mailmanPassword'>): ListEngine {
  if (server.listEngine === 'embedded') return embeddedListEngine;
  // The configuration's rule has made sure all three are set.
  return createMailmanEngine({ url: server.mailmanUrl ?? '', user: server.mailmanUser ?? '', password: server.mailmanPassword ?? '' });
}
