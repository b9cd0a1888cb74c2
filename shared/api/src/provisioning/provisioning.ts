/** The shapes the provisioning endpoints share (docs/provisioning.md). */
import { Type, type Static } from 'typebox';
import { closed } from '../common.js';

const Time = Type.Number({ description: 'milliseconds since 1970-01-01 UTC' });
const NullableTime = Type.Union([Time, Type.Null()]);

/** One target (the LDAP directory, a SCIM service): its backlog and its last reconcile. */
export const ProvisioningTarget = Type.Object(
  {
    name: Type.String(),
    kind: Type.String(),
    backlog: Type.Integer({ minimum: 0 }),
    failing: Type.Integer({ minimum: 0 }),
    oldest_pending: NullableTime,
    last_reconcile_at: NullableTime,
    last_reconcile_differences: Type.Union([Type.Integer(), Type.Null()]),
  },
  closed,
);
export type ProvisioningTarget = Static<typeof ProvisioningTarget>;

/** A change a target has not taken yet, with the reason it failed and when it is tried again. */
export const ProvisioningFailure = Type.Object(
  {
    target: Type.String(),
    object: Type.String({ description: "'account alice' or 'group ALPHA-team'" }),
    since: Time,
    attempts: Type.Integer({ minimum: 1 }),
    next_attempt_at: Time,
    error: Type.String(),
  },
  closed,
);
export type ProvisioningFailure = Static<typeof ProvisioningFailure>;

export const PROVISIONING_EVENT_KINDS = ['failed', 'retry', 'reconciled'] as const;

/** The history: a failure (an object's first), a retry asked for, a reconcile and what it repaired. */
export const ProvisioningEvent = Type.Object(
  {
    id: Type.Integer(),
    target: Type.String(),
    at: Time,
    kind: Type.Union([Type.Literal('failed'), Type.Literal('retry'), Type.Literal('reconciled')]),
    object: Type.Union([Type.String(), Type.Null()]),
    detail: Type.String(),
  },
  closed,
);
export type ProvisioningEvent = Static<typeof ProvisioningEvent>;

export const ReconcileResult = Type.Object(
  {
    target: Type.String(),
    summary: Type.String(),
    differences: Type.Integer({ minimum: 0 }),
    drift: Type.Array(Type.String()),
    unknown: Type.Array(Type.String()),
  },
  closed,
);
export type ReconcileResult = Static<typeof ReconcileResult>;

export const SERVICE_ACCESS_STATES = ['up-to-date', 'pending', 'failed'] as const;

/** Whether what the portal decided about one service of an account has reached the services. */
export const ServiceAccess = Type.Object(
  {
    service: Type.String(),
    state: Type.Union([Type.Literal('up-to-date'), Type.Literal('pending'), Type.Literal('failed')]),
    since: NullableTime,
    next_attempt_at: NullableTime,
    error: Type.Union([Type.String(), Type.Null()]),
  },
  closed,
);
export type ServiceAccess = Static<typeof ServiceAccess>;

/** The words the profile and Account Administration show for one service's access. */
export function serviceAccessText(access: ServiceAccess, time: (ms: number) => string): string {
  if (access.state === 'up-to-date') return 'Up to date';
  if (access.state === 'pending') return `Pending since ${time(access.since ?? 0)}`;
  return `Failed: ${access.error ?? 'unknown reason'}; retrying at ${time(access.next_attempt_at ?? 0)}`;
}
