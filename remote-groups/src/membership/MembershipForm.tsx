/**
 * The membership form (spec sections 2, 4 and 5): the username, the current and requested role,
 * the Jira notification level, the additional permission groups (show more above 6) and one
 * group per service the group uses that the portal offers, a DoD group's constraint, a reason ('(required)' for a new membership), the
 * synchronization notice and the submit button; help dialogs open from the labels. What is sent
 * is the join and leave lists of @portal/api's joinLeave, from what the member holds now.
 */
import {
  GROUP_MESSAGES,
  isServiceSupported,
  joinLeave,
  LIMITS,
  membershipParts,
  membershipReasonRule,
  preselection,
  ROLE_ORDER,
  SERVICE_INFO,
  serviceGroups,
  SHOW_MORE_ABOVE,
  type GroupRole,
  type Membership,
  type MembershipRequestAnswer,
  type NotificationLevel,
  type Service,
  type UpdateIntent,
  type UserGroup,
} from '@portal/api';
import { capitalize } from '@portal/shared/components';
import { MODAL_WIDTH, useConfiguration } from '@portal/shared';
import { FormShell, submissionErrors, TextAreaField } from '@portal/shared/forms';
import { Alert, Button, Checkbox, Form as AntForm, Modal, Radio, Select, Typography } from 'antd';
import { FORM_ERROR, type SubmissionErrors } from 'final-form';
import { type ReactNode, useMemo, useState } from 'react';
import { Field } from 'react-final-form';
import { submitMembership } from '../api/groups';
import { GROUP_TEXT } from '../messages';


/** Spec section 6: what each role and notification level means. */
const ROLE_HELP: Record<GroupRole, string> = {
  admin: 'View, add and modify, and manage the group’s membership.',
  team: 'View, add and modify.',
  user: 'View.',
};
const NOTIFICATION_HELP: Record<NotificationLevel, string> = {
  high: 'All events.',
  medium: 'Issues created, commented on, edited or resolved.',
  low: 'Issues created only.',
  none: 'Only issues you report, are assigned or watch.',
};

interface Values {
  role: GroupRole | 'none';
  notification: NotificationLevel;
  special: string[];
  services: Partial<Record<Service, string>>;
  reason?: string;
}

const NONE = '';

/** A label with a help dialog behind a button beside it. */
function HelpLabel({ id, label, title, children }: { id: string; label: string; title: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <span id={id}>
      {label}{' '}
      <Button type="link" size="small" onClick={() => setOpen(true)} aria-label={`Help: ${label}`} style={{ padding: 0, height: 'auto' }}>
        (?)
      </Button>
      <Modal open={open} title={title} width={MODAL_WIDTH} onCancel={() => setOpen(false)} footer={<Button onClick={() => setOpen(false)}>Close</Button>}>
        {children}
      </Modal>
    </span>
  );
}

export interface MembershipFormProps {
  readonly group: UserGroup;
  readonly username: string;
  /** What the account holds now; undefined when it holds none of the group's groups. */
  readonly membership: Membership | undefined;
  readonly intent: Extract<UpdateIntent, 'request' | 'update' | 'join'>;
  /** The `groups` query parameter (spec section 5). */
  readonly preselect?: string | null;
  readonly submitLabel: string;
  readonly onDone: (answer: MembershipRequestAnswer) => void;
}

export function MembershipForm({ group, username, membership, intent, preselect, submitLabel, onDone }: MembershipFormProps) {
  const current = useMemo(
    () => membershipParts(group.id, membership ? [...membership.direct, ...membership.nested] : [], group.services),
    [group.id, group.services, membership],
  );
  const config = useConfiguration();
  // A group per service only for the services this portal offers (a group may still use one it
  // no longer offers: a group held there is neither shown nor left).
  const offered = useMemo(() => group.services.filter((service) => isServiceSupported(config, service)), [config, group.services]);
  const [showAll, setShowAll] = useState(false);
  const isNew = intent === 'request';
  const reasonRule = useMemo(() => membershipReasonRule(isNew), [isNew]);

  const initialValues = useMemo<Values>(() => {
    const chosen = preselection(group.id, preselect, group.groups);
    return {
      role: chosen.role ?? current.role ?? (membership ? 'none' : 'user'),
      notification: chosen.notification ?? current.notification,
      special: [...new Set([...current.special.filter((g) => group.groups.includes(g)), ...chosen.special])],
      services: Object.fromEntries(offered.map((s) => [s, current.services[s] ?? NONE])),
    };
    // The form starts from what was loaded; later renders keep what the user chose.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const submit = async (values: Values): Promise<SubmissionErrors | undefined> => {
    const { join, leave } = joinLeave(group.id, current, {
      role: values.role === 'none' ? null : values.role,
      notification: values.notification,
      special: values.special,
      services: Object.fromEntries(offered.map((s) => [s, values.services[s] || null])),
    });
    if (join.length === 0 && leave.length === 0) return { [FORM_ERROR]: 'Nothing to change: choose a role, a notification level or a group.' };
    try {
      const answer = await submitMembership({
        user_group: group.id,
        username,
        join,
        leave,
        reason: intent === 'join' ? '' : (values.reason ?? '').trim(),
        updateIntent: intent,
      });
      onDone(answer);
      return undefined;
    } catch (error) {
      return submissionErrors(error);
    }
  };

  const additional = showAll ? group.groups : group.groups.slice(0, SHOW_MORE_ABOVE);

  return (
    <FormShell<Values> onSubmit={submit} initialValues={initialValues} aria-label="Membership" submitLabel={submitLabel} style={{ maxWidth: 720 }}>
      {group.memberConstraint === 'DoD' && (
        // Said before the form is filled, not only in the server's refusal after it is sent.
        <Alert type="warning" showIcon role="note" title={GROUP_MESSAGES.dodOnly(group.id)} style={{ marginBottom: 16 }} />
      )}
      <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '4px 16px' }}>
        <dt>Username</dt>
        <dd style={{ margin: 0 }}>{username}</dd>
        <dt>Current role</dt>
        <dd style={{ margin: 0 }}>{current.role ? capitalize(current.role) : 'None'}</dd>
      </dl>
      <Field<Values['role']> name="role">
        {({ input }) => (
          <AntForm.Item
            label={
              <HelpLabel id="label-role" label="Requested role" title="Group roles">
                {ROLE_ORDER.map((role) => (
                  <Typography.Paragraph key={role}>
                    <strong>{capitalize(role)}</strong>: {ROLE_HELP[role]}
                  </Typography.Paragraph>
                ))}
              </HelpLabel>
            }
          >
            <Radio.Group
              name="role"
              aria-labelledby="label-role"
              value={input.value}
              onChange={(event) => input.onChange(event.target.value as Values['role'])}
              options={[
                ...[...ROLE_ORDER].reverse().map((role) => ({ value: role, label: capitalize(role) })),
                ...(membership ? [{ value: 'none', label: 'None' }] : []),
              ]}
            />
          </AntForm.Item>
        )}
      </Field>
      <Field<NotificationLevel> name="notification">
        {({ input }) => (
          <AntForm.Item
            label={
              <HelpLabel id="label-notification" label="Jira notification" title="Jira notification levels">
                {(['high', 'medium', 'low', 'none'] as const).map((level) => (
                  <Typography.Paragraph key={level}>
                    <strong>{capitalize(level)}</strong>: {NOTIFICATION_HELP[level]}
                  </Typography.Paragraph>
                ))}
              </HelpLabel>
            }
          >
            <Radio.Group
              name="notification"
              aria-labelledby="label-notification"
              value={input.value}
              onChange={(event) => input.onChange(event.target.value as NotificationLevel)}
              options={(['high', 'medium', 'low', 'none'] as const).map((level) => ({ value: level, label: capitalize(level) }))}
            />
          </AntForm.Item>
        )}
      </Field>
      {group.groups.length > 0 && (
        <Field<string[]> name="special">
          {({ input }) => (
            <AntForm.Item
              label={
                <HelpLabel id="label-special" label="Additional permission groups" title="Additional permission groups">
                  <Typography.Paragraph>
                    Special permissions this group defines for its members, for example who may release or deploy. Tick the ones you need.
                  </Typography.Paragraph>
                </HelpLabel>
              }
            >
              <Checkbox.Group
                aria-labelledby="label-special"
                value={input.value}
                onChange={(value) => input.onChange(value as string[])}
                options={additional.map((name) => ({ value: name, label: name }))}
                style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
              />
              {group.groups.length > SHOW_MORE_ABOVE && (
                <Button type="link" onClick={() => setShowAll((v) => !v)} aria-expanded={showAll} style={{ paddingLeft: 0 }}>
                  {showAll ? 'Show fewer' : `Show all ${group.groups.length}`}
                </Button>
              )}
            </AntForm.Item>
          )}
        </Field>
      )}
      {offered.map((service) => (
        <Field<string> key={service} name={`services.${service}`}>
          {({ input }) => (
            <AntForm.Item label={<span id={`label-service-${service}`}>{`${SERVICE_INFO[service].name} group`}</span>}>
              <Select
                aria-labelledby={`label-service-${service}`}
                value={input.value || NONE}
                onChange={(value: string) => input.onChange(value)}
                options={[{ value: NONE, label: 'None' }, ...serviceGroups(group.id, service).map((name) => ({ value: name, label: name }))]}
                style={{ maxWidth: 360 }}
              />
            </AntForm.Item>
          )}
        </Field>
      ))}
      {intent !== 'join' && (
        <TextAreaField name="reason" label={isNew ? 'Reason (required)' : 'Reason (optional)'} maxLength={LIMITS.reason} rows={3} validate={reasonRule} />
      )}
      <Alert type="info" showIcon role="note" title={GROUP_TEXT.syncNotice} style={{ marginBottom: 16 }} />
    </FormShell>
  );
}
