/** GET /accounts/botchallengeendpoint: a proof-of-work challenge for the ALTCHA widget. */
import { apiRequest } from './client.js';

/** The challenge as the widget takes it (altcha v2 format); the portal only passes it along. */
export type BotChallenge = { readonly parameters: Record<string, unknown>; readonly signature?: string };

export async function getBotChallenge(options: { signal?: AbortSignal } = {}): Promise<BotChallenge> {
  const body = await apiRequest<{ code: number; ok: BotChallenge }>('GET', '/accounts/botchallengeendpoint', {
    ...options,
    xsrf: false,
  });
  return body.ok;
}
