/** Sample answers of the group calls for the screens' tests. */
import type { Membership, UserGroup, UserGroupSummary } from '@portal/api';
import type { MembershipRequestDetail } from '@portal/api/request-kinds/membership';

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
    permissions: ['VIEW_MEMBERSHIP', 'EDIT_USER_GROUP', 'LIST_MEMBERSHIP_REQUESTS', 'VIEW_MEMBERSHIP_REQUEST', 'ADJUDICATE_MEMBERSHIP_REQUEST', 'SUBMIT_MAILING_LIST_REQUEST', 'SUBMIT_SURROGATE_REQUEST'],
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

export function sampleMember(overrides: Partial<Membership> = {}): Membership {
  return {
    user_group: 'PORTAL',
    username: 'jane.doe',
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane.doe@example.test',
    status: 'Active',
    direct: ['PORTAL-user'],
    nested: [],
    role: 'user',
    notification: 'none',
    special: [],
    services: { jira: null },
    ...overrides,
  };
}

export function sampleMembershipRequest(overrides: Partial<MembershipRequestDetail> = {}): MembershipRequestDetail {
  return {
    id: 41,
    kind: 'membership',
    identifier: 'PORTAL',
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane.doe@example.test',
    username: 'jane.doe',
    status: 'pending',
    created: '2026-11-20T10:11:12Z',
    updated: '2026-11-20T10:11:12Z',
    reason: 'I work on the portal',
    adjudicator: null,
    submitted_by: null,
    updates: [{ status: 'pending', username: 'jane.doe', created: '2026-11-20T10:11:12Z', comment: 'I work on the portal' }],
    account: null,
    decisions: ['approved', 'denied'],
    user_group: 'PORTAL',
    join: ['PORTAL-team'],
    leave: [],
    updateIntent: 'request',
    ...overrides,
  };
}
