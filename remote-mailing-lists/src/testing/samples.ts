/** Sample answers of the mailing list calls for the screens' tests. */
import type { HeldMessage, ListMember, MailingList, UserGroup, UserGroupSummary } from '@portal/api';

export function sampleList(overrides: Partial<MailingList> = {}): MailingList {
  return {
    id: 'portal-dev@example.test',
    description: 'Portal developers',
    user_group: 'PORTAL',
    permission_group: 'PORTAL-team',
    automatic_subscription: true,
    posting_permissions: 'closed',
    is_subscribed: true,
    is_regular_subscription: true,
    is_moderator: false,
    is_eligible: true,
    ...overrides,
  };
}

export function sampleMember(overrides: Partial<ListMember> = {}): ListMember {
  return {
    list_id: 'portal-dev@example.test',
    user_email: 'jane.doe@example.test',
    user_full_name: 'Jane Doe',
    is_subscribed: true,
    ...overrides,
  };
}

export function sampleHeld(overrides: Partial<HeldMessage> = {}): HeldMessage {
  return {
    request_id: 7,
    list_id: 'portal-dev@example.test',
    sender: 'me@elsewhere.example',
    hold_date: '2026-11-20T10:11:12Z',
    original_size: 1.5,
    subject: 'Hello',
    msg: 'Hi all',
    reason: 'The sender is not a subscriber of a closed list.',
    ...overrides,
  };
}

export function sampleGroup(overrides: Partial<UserGroup> = {}): UserGroup {
  return {
    id: 'PORTAL',
    user_group: 'PORTAL',
    name: 'Portal Team',
    description: 'Builds the portal.',
    domain: 'TRMC',
    open_access: false,
    visibility: 'site-approved',
    memberConstraint: 'None',
    services: ['jira'],
    member: true,
    role: 'admin',
    permissions: ['VIEW_MEMBERSHIP', 'EDIT_USER_GROUP', 'SUBMIT_MAILING_LIST_REQUEST'],
    pending_request: false,
    groups: ['PORTAL-release'],
    member_count: 3,
    ...overrides,
  };
}

export function sampleSummary(overrides: Partial<UserGroupSummary> = {}): UserGroupSummary {
  const { groups: _groups, member_count: _count, ...summary } = sampleGroup();
  return { ...summary, ...overrides };
}
