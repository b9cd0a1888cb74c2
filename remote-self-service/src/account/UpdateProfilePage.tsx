/**
 * /update-profile (spec sections 2 and 5): name, username and email read-only; every other
 * profile field editable and required, checked on submit with the shared rules; the server's
 * messages under their fields, anything else below the submit button; success goes to
 * /profile with 'Profile updated successfully.'.
 */
import { type Account, links, PROFILE_RULES, profileUpdate, profileValues, type ProfileValues } from '@portal/api';
import { PageTitle, useHasPermission, useNavigateWithFeedback, useSessionStore } from '@portal/shared';
import { FormShell, submissionErrors } from '@portal/shared/forms';
import { updateAccount } from '../api/account';
import { Alert, Form as AntForm, Input, Skeleton } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ProfileFields, Section } from './ProfileFields';
import { useAccount } from './useAccount';
import { EMAIL_CHANGE_PENDING, PROFILE_LOAD_ERROR } from './ProfilePage';

export const PROFILE_UPDATED = 'Profile updated successfully.';
const PROFILE_FIELDS = Object.keys(PROFILE_RULES);

function ReadOnly({ name, label, value, extra }: { name: string; label: string; value: string; extra?: ReactNode }) {
  const id = `readonly-${name}`;
  return (
    <AntForm.Item label={label} htmlFor={id} extra={extra}>
      <Input id={id} value={value} readOnly variant="filled" />
    </AntForm.Item>
  );
}

function ProfileForm({ account }: { account: Account }) {
  const navigate = useNavigate();
  const navigateWithFeedback = useNavigateWithFeedback();
  const canChangeEmail = useHasPermission('CHANGE_EMAIL');
  const initialValues = useMemo(() => profileValues(account), [account]);

  const submit = async (values: ProfileValues) => {
    try {
      await updateAccount(account.username, profileUpdate(values));
      navigateWithFeedback(links.profile(), PROFILE_UPDATED);
      return undefined;
    } catch (error) {
      return submissionErrors(error, PROFILE_FIELDS);
    }
  };

  const emailExtra = account.email_change_pending ? EMAIL_CHANGE_PENDING : canChangeEmail ? <Link to={links.changeEmail()}>Change Email</Link> : undefined;

  return (
    <FormShell<ProfileValues> onSubmit={submit} initialValues={initialValues} aria-label="Update profile" submitLabel="Update Profile" cancel={{ onClick: () => navigate(links.profile()) }}>
      <Section title="Account">
        <ReadOnly name="name" label="Name" value={`${account.first_name} ${account.last_name}`.trim()} />
        <ReadOnly name="username" label="Username" value={account.username} />
        <ReadOnly name="email" label="Email" value={account.email} extra={emailExtra} />
      </Section>
      <ProfileFields storedReason={account.reason} />
    </FormShell>
  );
}

export function UpdateProfilePage() {
  const username = useSessionStore((s) => s.session?.username);
  const state = useAccount(username);
  return (
    <>
      <PageTitle>Update Profile</PageTitle>
      {state.status === 'loading' && <Skeleton active aria-busy="true" />}
      {state.status === 'failed' && (
        <Alert type="error" showIcon role="alert" title={PROFILE_LOAD_ERROR} description={state.error instanceof Error ? state.error.message : undefined} />
      )}
      {state.status === 'ready' && <ProfileForm account={state.value} />}
    </>
  );
}
