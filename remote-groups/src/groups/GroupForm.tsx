/**
 * The group form (spec sections 4 and 5): a new group's request (/request-user-group) or the
 * update of one (/edit-usergroup-details/:id). The interlock of open access and the membership
 * constraint, the constraint only with smart-card support, the visibility only with
 * HIDDEN_GROUP, services already used locked on update, choosing DoD warned about. The server
 * checks every rule again; its messages show under their fields.
 */
import {
  GROUP_FORM_RULES,
  groupIdRules,
  hiddenVisibility,
  LIMITS,
  openAccessRule,
  permissionGroupList,
  SERVICE_INFO,
  SITE_APPROVED,
  supportedServices,
  type MemberConstraint,
  type Service,
  type UserGroup,
} from '@portal/api';
import { useConfiguration, useHasPermission } from '@portal/shared';
import { FormShell, submissionErrors, TextAreaField, TextField } from '@portal/shared/forms';
import { Alert, Checkbox, Form as AntForm, Radio, Typography } from 'antd';
import type { SubmissionErrors } from 'final-form';
import { Field } from 'react-final-form';
import { GROUP_TEXT } from '../messages';

export interface GroupValues {
  user_group?: string;
  name?: string;
  description?: string;
  open_access: boolean;
  memberConstraint: MemberConstraint;
  hidden: boolean;
  services: Service[];
  groups?: string;
  reason?: string;
}

/**
 * Spec section 4, "Group form interlock": which of open access and the constraint may change.
 * Open with None: access enabled, constraint disabled; not open with None: both; not open with
 * DoD: access disabled; otherwise both.
 */
export function interlock(openAccess: boolean, constraint: MemberConstraint): { accessDisabled: boolean; constraintDisabled: boolean } {
  if (openAccess && constraint === 'None') return { accessDisabled: false, constraintDisabled: true };
  if (!openAccess && constraint === 'DoD') return { accessDisabled: true, constraintDisabled: false };
  return { accessDisabled: false, constraintDisabled: false };
}

const FIELDS = ['user_group', 'name', 'description', 'open_access', 'memberConstraint', 'visibility', 'services', 'groups', 'reason'];

export interface GroupFormProps {
  /** The group being edited; absent for a new group's request. */
  readonly group?: UserGroup;
  readonly submitLabel: string;
  readonly onSubmit: (values: GroupValues & { id: string; groupList: string[] }) => Promise<void>;
  readonly onCancel: () => void;
}

export function GroupForm({ group, submitLabel, onSubmit, onCancel }: GroupFormProps) {
  const configuration = useConfiguration();
  const mayHide = useHasPermission('HIDDEN_GROUP');
  const offered = supportedServices(configuration);
  const services = [...new Set([...offered, ...(group?.services ?? [])])];
  const isNew = group === undefined;

  const initialValues: GroupValues = {
    ...(group ? { name: group.name, description: group.description } : {}),
    open_access: group?.open_access ?? false,
    memberConstraint: group?.memberConstraint ?? 'None',
    hidden: group ? group.visibility !== SITE_APPROVED : false,
    services: group ? [...group.services] : [],
  };

  const validate = (values: GroupValues) => {
    const errors: Record<string, string | undefined> = {};
    if (isNew) {
      errors.user_group = groupIdRules(values.user_group ?? '');
      if (!errors.user_group && values.groups?.trim()) errors.groups = permissionGroupList((values.user_group ?? '').trim(), values.groups, []).problem;
      errors.reason = GROUP_FORM_RULES.reason((values.reason ?? '').trim());
    }
    errors.open_access = openAccessRule(values.open_access, values.memberConstraint);
    return errors;
  };

  const submit = async (values: GroupValues): Promise<SubmissionErrors | undefined> => {
    const id = isNew ? (values.user_group ?? '').trim() : group.id;
    try {
      await onSubmit({ ...values, id, groupList: values.groups?.trim() ? permissionGroupList(id, values.groups, []).names : [] });
      return undefined;
    } catch (error) {
      const errors = submissionErrors(error, FIELDS) ?? {};
      // The server names the visibility; the form's box is 'hidden'.
      return 'visibility' in errors ? { ...errors, hidden: errors.visibility } : errors;
    }
  };

  return (
    <FormShell<GroupValues>
      onSubmit={submit}
      initialValues={initialValues}
      validate={validate}
      aria-label={isNew ? 'Request a user group' : 'Edit user group details'}
      submitLabel={submitLabel}
      cancel={{ onClick: onCancel }}
      style={{ maxWidth: 720 }}
    >
      {({ values }) => {
        const { accessDisabled, constraintDisabled } = interlock(values.open_access, values.memberConstraint);
        const dodChosen = values.memberConstraint === 'DoD' && group?.memberConstraint !== 'DoD';
        return (
          <>
            {isNew ? (
              <TextField name="user_group" label="Group ID" maxLength={40} validate={groupIdRules} />
            ) : (
              <Typography.Paragraph>
                Group ID: <strong>{group.id}</strong> (domain {group.domain})
              </Typography.Paragraph>
            )}
            <TextField name="name" label="Group name" maxLength={LIMITS.text} validate={GROUP_FORM_RULES.name} />
            <TextAreaField name="description" label="Description" maxLength={LIMITS.text} rows={3} validate={GROUP_FORM_RULES.description} />
            <Field<boolean> name="open_access" type="checkbox">
              {({ input, meta }) => {
                const message = meta.submitFailed || meta.submitSucceeded ? ((meta.error ?? meta.submitError) as string | undefined) : undefined;
                return (
                  <AntForm.Item validateStatus={message ? 'error' : undefined} help={message} extra="Anyone may join as a user without approval.">
                    <Checkbox
                      id="field-open_access"
                      checked={!!input.checked}
                      disabled={accessDisabled}
                      onChange={(event) => input.onChange(event.target.checked)}
                      aria-invalid={message ? true : undefined}
                    >
                      Open access
                    </Checkbox>
                  </AntForm.Item>
                );
              }}
            </Field>
            {configuration.cac_support && (
              <Field<MemberConstraint> name="memberConstraint">
                {({ input, meta }) => (
                  <AntForm.Item
                    label={<span id="label-constraint">Membership constraint</span>}
                    validateStatus={meta.submitError ? 'error' : undefined}
                    help={meta.submitError as string | undefined}
                    extra={GROUP_TEXT.constraint[input.value]}
                  >
                    <Radio.Group
                      name="memberConstraint"
                      aria-labelledby="label-constraint"
                      value={input.value}
                      disabled={constraintDisabled}
                      onChange={(event) => input.onChange(event.target.value as MemberConstraint)}
                      options={[
                        { value: 'None', label: 'None' },
                        { value: 'DoD', label: 'DoD' },
                      ]}
                    />
                  </AntForm.Item>
                )}
              </Field>
            )}
            {dodChosen && <Alert type="warning" showIcon role="note" title={isNew ? GROUP_TEXT.dodRequestWarning : GROUP_TEXT.dodWarning} style={{ marginBottom: 16 }} />}
            {mayHide && (
              <Field<boolean> name="hidden" type="checkbox">
                {({ input, meta }) => (
                  <AntForm.Item validateStatus={meta.submitError ? 'error' : undefined} help={meta.submitError as string | undefined}>
                    <Checkbox id="field-hidden" checked={!!input.checked} onChange={(event) => input.onChange(event.target.checked)}>
                      Hidden: only the group&apos;s admins see it
                    </Checkbox>
                  </AntForm.Item>
                )}
              </Field>
            )}
            {services.length > 0 && (
              <Field<Service[]> name="services">
                {({ input, meta }) => (
                  <AntForm.Item
                    label={<span id="label-services">Services</span>}
                    validateStatus={meta.submitError ? 'error' : undefined}
                    help={meta.submitError as string | undefined}
                    extra={isNew ? undefined : 'Services the group already uses cannot be removed.'}
                  >
                    <Checkbox.Group
                      aria-labelledby="label-services"
                      value={input.value}
                      onChange={(value) => input.onChange(value as Service[])}
                      options={services.map((service) => ({
                        value: service,
                        label: SERVICE_INFO[service].name,
                        disabled: group?.services.includes(service) ?? false,
                      }))}
                    />
                  </AntForm.Item>
                )}
              </Field>
            )}
            {isNew && (
              <>
                <TextField
                  name="groups"
                  label="Additional permission groups (optional, comma separated)"
                  maxLength={1000}
                />
                <TextAreaField name="reason" label="Reason" maxLength={LIMITS.reason} rows={3} validate={GROUP_FORM_RULES.reason} />
          </>
        )}
          </>
        );
      }}
    </FormShell>
  );
}

/** The form's values as the calls take them. */
export function groupBody(values: GroupValues, id: string) {
  return {
    name: (values.name ?? '').trim(),
    description: (values.description ?? '').trim(),
    open_access: values.open_access,
    memberConstraint: values.memberConstraint,
    visibility: values.hidden ? hiddenVisibility(id) : SITE_APPROVED,
    services: values.services,
  };
}
