/**
 * /update-profile (spec sections 2 and 5): name, username and email read-only; every other
 * profile field editable and required, checked on submit with the shared rules; the server's
 * messages under their fields, anything else below the submit button; success goes to
 * /profile with 'Profile updated successfully.'.
 */
import {
  FormSubmitError,
  LIMITS,
  PageTitle,
  PROFILE_RULES,
  profileUpdate,
  profileValues,
  TextAreaField,
  TextField,
  updateAccount,
  useHasPermission,
  useNavigateWithFeedback,
  useSessionStore,
  type Account,
  type ProfileValues,
} from '@portal/shared';
import { Alert, Button, Form as AntForm, Input, Skeleton, Space, Typography } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { Form } from 'react-final-form';
import { Link, useNavigate } from 'react-router-dom';
import { formErrors, useAccount } from '../account/useAccount';
import { EMAIL_CHANGE_PENDING, PROFILE_LOAD_ERROR } from '../profile/ProfilePage';

export const PROFILE_UPDATED = 'Profile updated successfully.';
const PROFILE_FIELDS = Object.keys(PROFILE_RULES);

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset style={{ border: 0, padding: 0, margin: '0 0 8px', minWidth: 0 }}>
      <legend>
        <Typography.Title level={3} style={{ marginBottom: 12, fontSize: 18 }}>
          {title}
        </Typography.Title>
      </legend>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(240px, 1fr))', columnGap: 24 }}>{children}</div>
    </fieldset>
  );
}

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
      navigateWithFeedback('/profile', PROFILE_UPDATED);
      return undefined;
    } catch (error) {
      return formErrors(error, PROFILE_FIELDS);
    }
  };

  const emailExtra = account.email_change_pending ? EMAIL_CHANGE_PENDING : canChangeEmail ? <Link to="/change-email">Change Email</Link> : undefined;

  return (
    <Form<ProfileValues> onSubmit={submit} initialValues={initialValues}>
      {({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate aria-label="Update profile">
          <AntForm layout="vertical" component={false}>
            <Section title="Account">
              <ReadOnly name="name" label="Name" value={`${account.first_name} ${account.last_name}`.trim()} />
              <ReadOnly name="username" label="Username" value={account.username} />
              <ReadOnly name="email" label="Email" value={account.email} extra={emailExtra} />
            </Section>
            <Section title="Contact and address">
              <TextField name="phone" label="Business phone" autoComplete="work tel" maxLength={LIMITS.phone} validate={PROFILE_RULES.phone} />
              <TextField name="street" label="Street" autoComplete="street-address" maxLength={LIMITS.street} validate={PROFILE_RULES.street} />
              <TextField name="city" label="City" autoComplete="address-level2" maxLength={LIMITS.city} validate={PROFILE_RULES.city} />
              <TextField name="state" label="State" autoComplete="address-level1" maxLength={LIMITS.state} validate={PROFILE_RULES.state} />
              <TextField name="zip" label="Postal code" autoComplete="postal-code" maxLength={LIMITS.zip} validate={PROFILE_RULES.zip} />
              <TextField name="country" label="Country" autoComplete="country-name" maxLength={LIMITS.country} validate={PROFILE_RULES.country} />
            </Section>
            <Section title="Organization">
              <TextField name="company" label="Company or government office symbol" autoComplete="organization" maxLength={LIMITS.text} validate={PROFILE_RULES.company} />
              <TextField name="project" label="Project" maxLength={LIMITS.text} validate={PROFILE_RULES.project} />
            </Section>
            <Section title="Supervisor">
              <TextField name="supervisor_first_name" label="Supervisor first name" maxLength={LIMITS.text} validate={PROFILE_RULES.supervisor_first_name} />
              <TextField name="supervisor_last_name" label="Supervisor last name" maxLength={LIMITS.text} validate={PROFILE_RULES.supervisor_last_name} />
              <TextField name="supervisor_email" label="Supervisor email" type="email" maxLength={254} validate={PROFILE_RULES.supervisor_email} />
              <TextField name="supervisor_phone" label="Supervisor phone" maxLength={LIMITS.phone} validate={PROFILE_RULES.supervisor_phone} />
            </Section>
            <TextAreaField name="reason" label="Reason for account" maxLength={LIMITS.comment} validate={PROFILE_RULES.reason} />
            <Space>
              <Button type="primary" htmlType="submit" loading={submitting}>
                Update Profile
              </Button>
              <Button onClick={() => navigate('/profile')} disabled={submitting}>
                Cancel
              </Button>
            </Space>
            <FormSubmitError />
          </AntForm>
        </form>
      )}
    </Form>
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
      {state.status === 'ready' && <ProfileForm account={state.account} />}
    </>
  );
}
