/**
 * The Mailman 3 list engine (PORTAL_LIST_ENGINE=mailman; server/docs/mailing-lists.md, "The
 * Mailman 3 engine"): Mailman core receives the posts, holds them, delivers them and sends the
 * digests; the portal drives it over its REST API 3.1 with basic authentication.
 *  - a list: POST /domains (when missing), POST /lists, PATCH /lists/{list_id}/config (the
 *    description, who may post, subscriptions only through the portal, no welcome or goodbye mail);
 *  - a member: POST /members with pre_verified, pre_confirmed and pre_approved (no confirmation
 *    mail, no moderator), PATCH /members/{id} delivery_mode regular | plaintext_digests,
 *    DELETE /members/{id} with pre_approved and pre_confirmed;
 *  - a roster: GET /lists/{list_id}/roster/member, or GET /members/find for one address;
 *  - held messages: GET /lists/{list_id}/held (the raw message parsed to plain text here), and
 *    POST /lists/{list_id}/held/{request_id} action=accept | discard; always-accept also adds the
 *    sender to the list's accept_these_nonmembers.
 * A list's Mailman id is its address with the '@' turned into a '.' (Mailman's own rule).
 * Every call has a time limit; Mailman unreachable, too slow or answering an error is a
 * ListEngineError whose message a person understands (never the password or Mailman's answer).
 */
import { simpleParser } from 'mailparser';
import type { PostingPermission } from '@portal/api';
import type { HeldMessageRecord } from '../../repositories/mailing-lists.js';
import { ListEngineError, NO_CHANGES, type Delivery, type EngineList, type ListEngine, type RosterChanges, type RosterEntry } from './engine.js';

export interface MailmanOptions {
  /** Mailman core's REST address, e.g. http://127.0.0.1:8001 (the adapter adds /3.1). */
  readonly url: string;
  readonly user: string;
  /** Sent in the Authorization header and nowhere else. */
  readonly password: string;
  /** How long one call may take; 10 seconds unless told. */
  readonly timeoutMs?: number;
}

export const MAILMAN_TIMEOUT_MS = 10_000;

/** Mailman's list id of a list address: alpha-dev@lists.example.test → alpha-dev.lists.example.test. */
export const mailmanListId = (address: string): string => address.toLowerCase().replace('@', '.');

/** How the portal's posting permissions are set in Mailman (default actions for members and non-members). */
export const POSTING_ACTIONS: Readonly<Record<PostingPermission, { default_member_action: string; default_nonmember_action: string }>> = {
  // Subscribers post; anyone else is held for a moderator.
  closed: { default_member_action: 'defer', default_nonmember_action: 'hold' },
  open: { default_member_action: 'defer', default_nonmember_action: 'accept' },
  // Every post waits for a moderator (the portal's moderators decide on the portal's page).
  announce: { default_member_action: 'hold', default_nonmember_action: 'hold' },
};

const MAILMAN_DELIVERY: Record<Delivery, string> = { regular: 'regular', digest: 'plaintext_digests' };
const deliveryOf = (mode: unknown): Delivery => (mode === 'regular' ? 'regular' : 'digest');

/** The most held messages read per list when discarding the deferred ones. */
const HELD_SCAN_LIMIT = 10_000;

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

interface MemberEntry {
  member_id: string;
  email: string;
  list_id: string;
  delivery_mode: string;
  role: string;
}

interface HeldEntry {
  request_id: number;
  sender?: string;
  subject?: string;
  reason?: string;
  hold_date?: string;
  msg?: string;
  original_size?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function entriesOf<T>(answer: Answer): T[] {
  return isRecord(answer.body) && Array.isArray(answer.body.entries) ? (answer.body.entries as T[]) : [];
}

/** Mailman writes naive UTC times ('2026-11-24T15:30:30.819151'). */
function utcDate(text: string | undefined): Date {
  if (!text) return new Date(0);
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(date.getTime()) ? new Date(0) : date;
}

/** A held message's raw text as plain text: the text part, or the HTML part turned into text; never markup. */
async function plainText(raw: string): Promise<string> {
  const parsed = await simpleParser(raw, { skipHtmlToText: false, skipImageLinks: true, skipTextToHtml: true });
  return (parsed.text ?? '').replace(/\s+$/, '');
}

export function createMailmanEngine(options: MailmanOptions): ListEngine {
  const base = `${options.url.replace(/\/+$/, '').replace(/\/3\.[01]$/, '')}/3.1`;
  const authorization = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
  const timeoutMs = options.timeoutMs ?? MAILMAN_TIMEOUT_MS;
  const waited = timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`;
  const unavailable = (problem: string, unreachable = true) =>
    new ListEngineError(`The mailing list server (Mailman) is not available: ${problem} Please try again later.`, problem, unreachable);

  /** One call; only its status and parsed body come back, and no failure carries what was sent or answered. */
  async function send(what: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, form?: Record<string, string | boolean>, json?: unknown): Promise<Answer> {
    let response: Response;
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    let body: string | undefined;
    if (form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, String(v)])).toString();
    } else if (json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(json);
    }
    try {
      response = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }), signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw unavailable(timedOut ? `no answer within ${waited} while ${what}.` : `no connection while ${what}.`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw unavailable(`the answer broke off while ${what}.`);
    }
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.status === 401 || response.status === 403) throw unavailable(`it refused the portal's credentials (PORTAL_MAILMAN_USER, PORTAL_MAILMAN_PASSWORD) while ${what}.`);
    if (response.status >= 500) throw unavailable(`it failed (HTTP ${response.status}) while ${what}.`);
    return { status: response.status, body: parsed };
  }

  const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300;
  // Mailman answered, and refused this one change.
  const failed = (what: string, answer: Answer) => unavailable(`it answered HTTP ${answer.status} while ${what}.`, false);
  const listPath = (list: EngineList) => `/lists/${encodeURIComponent(mailmanListId(list.id))}`;

  async function ensureDomain(domain: string): Promise<void> {
    const what = `creating the domain ${domain}`;
    const found = await send(what, 'GET', `/domains/${encodeURIComponent(domain)}`);
    if (ok(found)) return;
    const created = await send(what, 'POST', '/domains', { mail_host: domain });
    if (ok(created)) return;
    // Another process may have created it meanwhile (400 "Duplicate email host").
    if (!ok(await send(what, 'GET', `/domains/${encodeURIComponent(domain)}`))) throw failed(what, created);
  }

  async function ensureList(list: EngineList): Promise<boolean> {
    const what = `creating the list ${list.id}`;
    if (ok(await send(what, 'GET', listPath(list)))) return false;
    await ensureDomain(list.id.split('@')[1] ?? '');
    const created = await send(what, 'POST', '/lists', { fqdn_listname: list.id });
    if (!ok(created) && created.status !== 400) throw failed(what, created);
    const configured = await send(what, 'PATCH', `${listPath(list)}/config`, undefined, {
      description: list.description,
      advertised: false,
      // Only the portal subscribes and unsubscribes (its calls are pre-approved).
      subscription_policy: 'moderate',
      unsubscription_policy: 'moderate',
      send_welcome_message: false,
      send_goodbye_message: false,
      ...POSTING_ACTIONS[list.postingPermissions],
    });
    if (!ok(configured)) throw failed(what, configured);
    return true;
  }

  /**
   * The list's members at Mailman; a list Mailman does not have is created first (it lost it, or
   * never had it), unless `create` is false (a dry run changes nothing).
   */
  async function roster(list: EngineList, create = true): Promise<MemberEntry[]> {
    const what = `reading the members of ${list.id}`;
    const answer = await send(what, 'GET', `${listPath(list)}/roster/member`);
    if (answer.status === 404) {
      if (create) await ensureList(list);
      return [];
    }
    if (!ok(answer)) throw failed(what, answer);
    return entriesOf<MemberEntry>(answer);
  }

  async function subscribe(list: EngineList, member: { email: string; displayName: string }, delivery: Delivery): Promise<void> {
    const what = `subscribing ${member.email} to ${list.id}`;
    const answer = await send(what, 'POST', '/members', {
      list_id: mailmanListId(list.id),
      subscriber: member.email,
      display_name: member.displayName,
      pre_verified: true,
      pre_confirmed: true,
      pre_approved: true,
      send_welcome_message: false,
      delivery_mode: MAILMAN_DELIVERY[delivery],
    });
    if (!ok(answer) && answer.status !== 409) throw failed(what, answer);
  }

  async function setDelivery(memberId: string, delivery: Delivery, what: string): Promise<void> {
    const answer = await send(what, 'PATCH', `/members/${encodeURIComponent(memberId)}`, { delivery_mode: MAILMAN_DELIVERY[delivery] });
    if (!ok(answer)) throw failed(what, answer);
  }

  async function unsubscribe(memberId: string, what: string): Promise<void> {
    const answer = await send(what, 'DELETE', `/members/${encodeURIComponent(memberId)}`, { pre_approved: true, pre_confirmed: true });
    // 404: gone already.
    if (!ok(answer) && answer.status !== 404) throw failed(what, answer);
  }

  /** Brings one address on one list to the wanted state, given what Mailman has (with dryRun: only counts). */
  async function apply(
    list: EngineList,
    member: { email: string; displayName: string },
    current: MemberEntry | undefined,
    delivery: Delivery | null,
    changes: RosterChanges,
    dryRun = false,
  ): Promise<void> {
    if (delivery === null) {
      if (current) {
        if (!dryRun) await unsubscribe(current.member_id, `unsubscribing ${member.email} from ${list.id}`);
        changes.unsubscribed++;
      }
    } else if (!current) {
      if (!dryRun) await subscribe(list, member, delivery);
      changes.subscribed++;
    } else if (deliveryOf(current.delivery_mode) !== delivery) {
      if (!dryRun) await setDelivery(current.member_id, delivery, `changing the delivery of ${member.email} on ${list.id}`);
      changes.changedDelivery++;
    }
  }

  async function held(list: EngineList, limit: number): Promise<HeldEntry[]> {
    const what = `reading the held messages of ${list.id}`;
    const answer = await send(what, 'GET', `${listPath(list)}/held?count=${limit}&page=1`);
    if (answer.status === 404) return [];
    if (!ok(answer)) throw failed(what, answer);
    return entriesOf<HeldEntry>(answer);
  }

  const asList = (id: string): EngineList => ({ id, description: '', postingPermissions: 'closed', userGroupId: '', permissionGroup: '', automaticSubscription: false });

  async function heldRecord(listId: string, entry: HeldEntry): Promise<HeldMessageRecord> {
    const raw = entry.msg ?? '';
    return {
      id: Number(entry.request_id),
      listId,
      sender: entry.sender ?? '',
      subject: entry.subject ?? '',
      text: await plainText(raw),
      sizeBytes: typeof entry.original_size === 'number' ? entry.original_size : Buffer.byteLength(raw),
      reason: entry.reason ?? '',
      heldAt: utcDate(entry.hold_date),
    };
  }

  async function acceptSender(list: EngineList, sender: string): Promise<void> {
    const what = `always accepting ${sender} on ${list.id}`;
    const path = `${listPath(list)}/config/accept_these_nonmembers`;
    const current = await send(what, 'GET', path);
    if (!ok(current)) throw failed(what, current);
    const senders = isRecord(current.body) && Array.isArray(current.body.accept_these_nonmembers) ? (current.body.accept_these_nonmembers as string[]) : [];
    if (senders.some((s) => s.toLowerCase() === sender.toLowerCase())) return;
    const patched = await send(what, 'PATCH', path, undefined, { accept_these_nonmembers: [...senders, sender.toLowerCase()] });
    if (!ok(patched)) throw failed(what, patched);
  }

  /** POST held/{id}: true when done, false when the message is no longer held (decided meanwhile). */
  async function decide(list: EngineList, requestId: number, action: 'accept' | 'discard'): Promise<boolean> {
    const what = `${action === 'accept' ? 'accepting' : 'discarding'} a held message of ${list.id}`;
    const answer = await send(what, 'POST', `${listPath(list)}/held/${requestId}`, { action });
    if (answer.status === 404) return false;
    if (!ok(answer)) throw failed(what, answer);
    return true;
  }

  return {
    name: 'mailman',
    portalDelivers: false,

    async createList(_tx, list) {
      await ensureList(list);
    },

    async setSubscription(list, member, delivery) {
      const current = (await roster(list)).find((m) => m.email.toLowerCase() === member.email.toLowerCase());
      await apply(list, member, current, delivery, { ...NO_CHANGES });
    },

    async reconcileList(list, wanted: readonly RosterEntry[], options = {}) {
      const dryRun = options.dryRun === true;
      const changes = { ...NO_CHANGES };
      const current = new Map((await roster(list, !dryRun)).map((m) => [m.email.toLowerCase(), m]));
      const wantedBy = new Map(wanted.map((w) => [w.email.toLowerCase(), w]));
      for (const [email, member] of current) {
        if (!wantedBy.has(email)) await apply(list, { email: member.email, displayName: '' }, member, null, changes, dryRun);
      }
      for (const [email, entry] of wantedBy) await apply(list, entry, current.get(email), entry.delivery, changes, dryRun);
      return changes;
    },

    async reconcileAddress(member, wanted, managed) {
      const what = `reading the subscriptions of ${member.email}`;
      const answer = await send(what, 'GET', `/members/find?${new URLSearchParams({ subscriber: member.email, role: 'member' }).toString()}`);
      if (!ok(answer) && answer.status !== 404) throw failed(what, answer);
      const current = new Map(entriesOf<MemberEntry>(answer).filter((m) => m.email.toLowerCase() === member.email.toLowerCase()).map((m) => [m.list_id, m]));
      const changes = { ...NO_CHANGES };
      for (const list of managed) {
        const delivery = wanted.get(list.id) ?? null;
        const entry = current.get(mailmanListId(list.id));
        if (delivery !== null) await ensureList(list);
        await apply(list, member, entry, delivery, changes);
      }
      return changes;
    },

    async heldCounts(_db, listIds) {
      const counts = new Map<string, number>();
      for (const id of listIds) {
        const what = `counting the held messages of ${id}`;
        const answer = await send(what, 'GET', `${listPath(asList(id))}/held?count=1&page=1`);
        if (answer.status === 404) continue;
        if (!ok(answer)) throw failed(what, answer);
        const total = isRecord(answer.body) && typeof answer.body.total_size === 'number' ? answer.body.total_size : 0;
        if (total > 0) counts.set(id, total);
      }
      return counts;
    },

    async heldMessages(_db, listIds, limit) {
      const records: HeldMessageRecord[] = [];
      for (const id of listIds) for (const entry of await held(asList(id), limit)) records.push(await heldRecord(id, entry));
      records.sort((a, b) => a.heldAt.getTime() - b.heldAt.getTime() || a.listId.localeCompare(b.listId) || a.id - b.id);
      return records.slice(0, limit);
    },

    async moderate(_tx, list, actions, discardDeferred) {
      let accepted = 0;
      let discarded = 0;
      const named = new Set<number>();
      for (const { messageId, action } of actions) {
        named.add(messageId);
        if (action === 'discard') {
          if (await decide(list, messageId, 'discard')) discarded++;
          continue;
        }
        if (action === 'always-accept') {
          // The sender as Mailman holds it, not as the caller says.
          const what = `reading a held message of ${list.id}`;
          const message = await send(what, 'GET', `${listPath(list)}/held/${messageId}`);
          if (message.status === 404) continue;
          if (!ok(message)) throw failed(what, message);
          const sender = isRecord(message.body) && typeof message.body.sender === 'string' ? message.body.sender : '';
          if (sender !== '') await acceptSender(list, sender);
        }
        if (await decide(list, messageId, 'accept')) accepted++;
      }
      if (discardDeferred) {
        for (const entry of await held(list, HELD_SCAN_LIMIT)) {
          if (!named.has(Number(entry.request_id)) && (await decide(list, Number(entry.request_id), 'discard'))) discarded++;
        }
      }
      return { accepted, discarded };
    },
  };
}
