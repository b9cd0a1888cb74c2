/**
 * /mailing-lists/new/:groupId (spec sections 2, 5, 6 and 8): the request for a new list of a
 * group. Without SUBMIT_MAILING_LIST_REQUEST in the group (or for a group the caller may not see)
 * the page goes to /mailing-lists. The list name shows the final address as it is typed; the
 * defaults are the spec's (permission group {group}-team, posting closed, opt-out). Success goes
 * to /mailing-lists with 'Mailing list request submitted.'; the server's messages show under
 * their fields, a list that exists already (409) below the submit button.
 */
import {
  links,
  LIMITS,
  listNameProblem,
  MAILING_LIST_FORM_RULES,
  mailingListAddress,
  mailingListDefaults,
  POSTING_PERMISSIONS,
  roleGroup,
  ROLE_ORDER,
  type PostingPermission,
  type UserGroup,
} from '@portal/api';
import { PageTitle, useConfiguration, useNavigateWithFeedback } from '@portal/shared';
import { FormField, FormShell, submissionErrors, TextAreaField } from '@portal/shared/forms';
import { isNotFound, useLoaded } from '@portal/shared/components';
import { Alert, Form as AntForm, Input, Radio, Select, Skeleton, Space, Typography } from 'antd';
import type { SubmissionErrors } from 'final-form';
import { useCallback } from 'react';
import { Field } from 'react-final-form';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { getGroup, requestMailingList } from '../api/mailing-lists';
import { isForbidden, listErrorText, MAILING_LIST_MESSAGES, POSTING_TEXT, SUBSCRIPTION_TEXT } from '../messages';

interface ListValues {
  list_name?: string;
  description?: string;
  permission_group: string;
  posting_permissions: PostingPermission;
  /** 'true' (opt-out) or 'false' (opt-in): a radio's value. */
  automatic_subscription: 'true' | 'false';
  reason?: string;
}

const FIELDS = ['list_name', 'description', 'permission_group', 'posting_permissions', 'automatic_subscription', 'reason'];

/** The groups whose members may be made eligible: the role groups, then the group's additional ones. */
export function permissionGroupChoices(group: UserGroup): string[] {
  return [...new Set([...ROLE_ORDER.map((role) => roleGroup(group.id, role)), ...group.groups])];
}

/** A radio group labelled by the text above it (one line of explanation per choice), with the server's message under it. */
function RadioField<V extends string>({
  name,
  label,
  options,
}: {
  name: string;
  label: string;
  options: readonly { value: V; label: string; explanation: string }[];
}) {
  const labelId = `label-${name}`;
  return (
    <Field<V> name={name}>
      {({ input, meta }) => {
        const message = meta.submitError as string | undefined;
        return (
          <AntForm.Item label={<span id={labelId}>{label}</span>} validateStatus={message ? 'error' : undefined} help={message}>
            <Radio.Group
              aria-labelledby={labelId}
              name={name}
              value={input.value}
              onChange={(event) => input.onChange(event.target.value as V)}
            >
              <Space orientation="vertical" size={4}>
                {options.map((option) => (
                  <Radio key={option.value} value={option.value}>
                    <strong>{option.label}:</strong> {option.explanation}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </AntForm.Item>
        );
      }}
    </Field>
  );
}

function RequestForm({ group }: { group: UserGroup }) {
  const { email_domain: domain } = useConfiguration();
  const navigate = useNavigate();
  const navigateWithFeedback = useNavigateWithFeedback();
  const defaults = mailingListDefaults(group.id);
  const initialValues: ListValues = {
    permission_group: defaults.permission_group,
    posting_permissions: defaults.posting_permissions,
    automatic_subscription: defaults.automatic_subscription ? 'true' : 'false',
  };
  const nameRule = Object.assign((value: unknown) => listNameProblem(group.id, typeof value === 'string' ? value : '', domain), { isRequired: true });

  const submit = async (values: ListValues): Promise<SubmissionErrors | undefined> => {
    try {
      await requestMailingList({
        user_group: group.id,
        list_name: (values.list_name ?? '').trim(),
        description: (values.description ?? '').trim(),
        permission_group: values.permission_group,
        posting_permissions: values.posting_permissions,
        automatic_subscription: values.automatic_subscription === 'true',
        reason: (values.reason ?? '').trim(),
      });
    } catch (error) {
      return submissionErrors(error, FIELDS);
    }
    navigateWithFeedback(links.mailingLists(), MAILING_LIST_MESSAGES.submitted);
    return undefined;
  };

  return (
    <FormShell<ListValues>
      onSubmit={submit}
      initialValues={initialValues}
      aria-label="Request a mailing list"
      submitLabel="Submit Request"
      cancel={{ onClick: () => navigate(links.mailingLists()) }}
      style={{ maxWidth: 720 }}
    >
      {({ values }) => {
        const name = (values.list_name ?? '').trim();
        const address = name === '' ? `${group.id.toLowerCase()}-…@${domain.toLowerCase()}` : mailingListAddress(group.id, name, domain);
        return (
          <>
            <FormField<string>
              name="list_name"
              label="List name"
              validate={nameRule}
              extra={
                <span id="list-address">
                  The list&apos;s address: <Typography.Text code>{address}</Typography.Text>
                </span>
              }
            >
              {({ input, control }) => <Input {...input} {...control} maxLength={LIMITS.text} aria-describedby="list-address" />}
            </FormField>
            <TextAreaField name="description" label="Description" maxLength={LIMITS.text} rows={3} validate={MAILING_LIST_FORM_RULES.description} />
            <FormField<string> name="permission_group" label="Permission group" extra="Its members are eligible for the list.">
              {({ input, control }) => (
                <Select
                  id={control.id}
                  aria-invalid={control['aria-invalid']}
                  value={input.value}
                  onChange={(value: string) => input.onChange(value)}
                  options={permissionGroupChoices(group).map((g) => ({ value: g, label: g }))}
                  style={{ maxWidth: 400 }}
                />
              )}
            </FormField>
            <RadioField<PostingPermission>
              name="posting_permissions"
              label="Posting permissions"
              options={POSTING_PERMISSIONS.map((p) => ({ value: p, ...POSTING_TEXT[p] }))}
            />
            <RadioField<'true' | 'false'>
              name="automatic_subscription"
              label="Subscription"
              options={[
                { value: 'true', ...SUBSCRIPTION_TEXT.optOut },
                { value: 'false', ...SUBSCRIPTION_TEXT.optIn },
              ]}
            />
            <TextAreaField name="reason" label="Reason" maxLength={LIMITS.reason} rows={3} validate={MAILING_LIST_FORM_RULES.reason} />
          </>
        );
      }}
    </FormShell>
  );
}

export function RequestMailingListPage() {
  const { groupId = '' } = useParams();
  const load = useCallback((signal: AbortSignal) => getGroup(groupId, { signal }), [groupId]);
  const state = useLoaded(load);
  // Spec section 6: without the group permission, back to /mailing-lists.
  const refused =
    (state.status === 'failed' && (isNotFound(state.error) || isForbidden(state.error))) ||
    (state.status === 'ready' && !state.value.permissions.includes('SUBMIT_MAILING_LIST_REQUEST'));
  if (refused) return <Navigate to={links.mailingLists()} replace />;
  return (
    <>
      <PageTitle>Request Mailing List</PageTitle>
      {state.status === 'failed' && <Alert type="error" showIcon role="alert" title={listErrorText(state.error)} />}
      {state.status === 'loading' && <Skeleton active aria-busy="true" />}
      {state.status === 'ready' && (
        <>
          <Typography.Paragraph>
            Ask for a new mailing list of the group <strong>{state.value.id}</strong> ({state.value.name}). An adjudicator reviews the
            request; once it is approved the list is created and you moderate it.
          </Typography.Paragraph>
          <RequestForm group={state.value} />
        </>
      )}
    </>
  );
}
