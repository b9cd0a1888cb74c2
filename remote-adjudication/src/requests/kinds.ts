/**
 * The request queues of this remote, the account kinds' (spec sections 2, 6 and 8;
 * server/docs/adjudication.md): a new account, an authentication change, an email change, an
 * unlock. The user group and mailing list kinds' queues are their remotes' (remote-groups,
 * remote-mailing-lists); every queue is served by @portal/shared/requests' pages.
 */
import { adjudicationPages } from '@portal/api';
import { authChangeRequestKind } from '@portal/api/request-kinds/auth-change';
import { newAccountRequestKind } from '@portal/api/request-kinds/new-account';
import { profileChangeRequestKind } from '@portal/api/request-kinds/profile-change';
import { unlockRequestKind } from '@portal/api/request-kinds/unlock';
import { authenticationMethod } from '@portal/shared/components';
import { APPROVE_OR_DENY, fullName, lines, multiline, orNotProvided, queueInfo, yesNo, type DetailItems, type KindConfig } from '@portal/shared/requests';

/** Spec section 8's success feedback, word for word. */
export const FEEDBACK = {
  newApproved: (first: string, last: string) => `New account request APPROVED for ${first} ${last}`,
  newDenied: (first: string, last: string) => `New account request DENIED for ${first} ${last}`,
  moreInformation: "'Additional info needed' request sent",
  authChangeApproved: 'Authentication Change Request approved.',
  authChangeDenied: 'Authentication Change Request denied.',
  emailChangeApproved: 'Email change request approved.',
  emailChangeDenied: 'Email change request denied.',
  unlockApproved: (username: string) => `Account unlocked for ${username}.`,
  unlockDenied: (username: string) => `Unlock account request for ${username} denied.`,
} as const;


const requestedAuthentication = (identifier: string) =>
  identifier === 'certificate' ? 'CAC' : identifier === 'token' ? 'Website token' : identifier;

/** The kinds whose queue is here. */
type AccountKind = 'new' | 'authchange' | 'profilechange' | 'unlock';

export const KINDS: { readonly [K in AccountKind]: KindConfig<K> } = {
  new: {
    ...queueInfo(newAccountRequestKind),
    // Spec section 6 gives two readings for this link (one names VIEW_AUTH_CHANGE_REQUEST): this
    // is the other, the kind's own view permission, as every other list uses.
    identifierLabel: 'Requested Username',
    showUsername: false,
    buttons: { approved: 'Approve New Account', denied: 'Deny New Account', incomplete: 'Request More Information' },
    fields: (request, { cacSupport }) => {
      const { address, supervisor } = request;
      const items: DetailItems = [
        { key: 'name', label: 'Name', children: fullName(request.first_name, request.last_name) },
        { key: 'username', label: 'Username', children: request.username },
        { key: 'email', label: 'Email', children: request.email },
        { key: 'phone', label: 'Phone', children: request.phone },
        {
          key: 'address',
          label: 'Address',
          children: lines(address?.street, [address?.city, [address?.state, address?.zip].filter(Boolean).join(' ')].filter(Boolean).join(', '), address?.country),
        },
        { key: 'company', label: 'Company / office symbol', children: request.company },
        { key: 'project', label: 'Project', children: request.project },
        { key: 'reason', label: 'Reason for account', children: multiline(request.reason) },
        { key: 'supervisor-first-name', label: 'Supervisor first name', children: orNotProvided(supervisor?.first_name) },
        { key: 'supervisor-last-name', label: 'Supervisor last name', children: orNotProvided(supervisor?.last_name) },
        { key: 'supervisor-email', label: 'Supervisor email', children: orNotProvided(supervisor?.email) },
        { key: 'supervisor-phone', label: 'Supervisor phone', children: orNotProvided(supervisor?.phone) },
      ];
      if (cacSupport) items.push({ key: 'cac-eligible', label: 'CAC eligible', children: yesNo(request.cac_eligible) });
      return items;
    },
    feedback: (decision, r) =>
      decision === 'approved'
        ? FEEDBACK.newApproved(r.first_name, r.last_name)
        : decision === 'denied'
          ? FEEDBACK.newDenied(r.first_name, r.last_name)
          : FEEDBACK.moreInformation,
    returnTo: 'list',
  },
  authchange: {
    ...queueInfo(authChangeRequestKind),
    identifierLabel: 'Requested Authentication',
    formatIdentifier: requestedAuthentication,
    showUsername: true,
    buttons: APPROVE_OR_DENY,
    fields: (request) => {
      const items: DetailItems = [
        { key: 'username', label: 'Username', children: request.username },
        { key: 'authentication', label: 'Requested authentication', children: authenticationMethod(request.authentication) },
      ];
      if (request.sponsor_email.trim() !== '') items.push({ key: 'sponsor', label: 'Government sponsor', children: request.sponsor_email });
      items.push({ key: 'reason', label: 'Reason', children: multiline(request.reason) });
      return items;
    },
    showAccount: true,
    feedback: (decision) => (decision === 'approved' ? FEEDBACK.authChangeApproved : FEEDBACK.authChangeDenied),
    returnTo: 'list',
  },
  profilechange: {
    ...queueInfo(profileChangeRequestKind),
    identifierLabel: 'New Email',
    showUsername: true,
    buttons: APPROVE_OR_DENY,
    fields: (request) => [
      { key: 'username', label: 'Username', children: request.username },
      { key: 'current-email', label: 'Current email', children: request.previous_email || request.account?.email || '' },
      { key: 'new-email', label: 'New email', children: request.email },
      { key: 'reason', label: 'Reason', children: multiline(request.reason) },
    ],
    showAccount: true,
    feedback: (decision) => (decision === 'approved' ? FEEDBACK.emailChangeApproved : FEEDBACK.emailChangeDenied),
    // Spec section 2: "Email change details: returns to the previous page."
    returnTo: 'previous',
  },
  unlock: {
    ...queueInfo(unlockRequestKind),
    // The identifier is the username: the username column shows it.
    showUsername: true,
    buttons: APPROVE_OR_DENY,
    fields: (request) => [
      { key: 'username', label: 'Username', children: request.username },
      { key: 'reason', label: 'Reason', children: multiline(request.reason) },
    ],
    showAccount: true,
    feedback: (decision, r) => (decision === 'approved' ? FEEDBACK.unlockApproved(r.username) : FEEDBACK.unlockDenied(r.username)),
    returnTo: 'list',
  },
};

/** This remote's queues, in the order of its route table. */
export const QUEUES: readonly KindConfig[] = [KINDS.new, KINDS.authchange, KINDS.profilechange, KINDS.unlock];

/** The denied account requests: searched, not queued; their details are the new account's. */
export const DENIED = {
  path: adjudicationPages.deniedRequests.pattern,
  title: adjudicationPages.deniedRequests.title,
  detailTitle: adjudicationPages.deniedRequest.title,
} as const;
