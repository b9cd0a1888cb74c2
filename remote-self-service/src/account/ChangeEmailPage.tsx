/**
 * /change-email (the signed-in user's own address) and /change-email/:username (a surrogate
 * request for another account): spec sections 2, 4 and 5. Submit first asks whether the new
 * address is in use; if not, a confirmation modal; confirmed, the request is sent and the user
 * goes to /profile (own) or back to the account's administration page (surrogate) with
 * 'Successfully requested email change.'.
 */
import { type Account, composeValidators, email, lengthAtMost, LIMITS, links, MAX_MAIL_ADDRESS_LENGTH, required, RULE_MESSAGES, type Validator } from '@portal/api';
import { ConfirmModal, MESSAGES, PageTitle, useConfirmation, useNavigateWithFeedback, useSessionStore } from '@portal/shared';
import { CheckboxField, FormShell, mustBeChecked, submissionErrors, TextAreaField, TextField } from '@portal/shared/forms';
import { isNotFound } from '@portal/shared/components';
import { emailExists, requestEmailChange } from '../api/account';
import { Alert, Form as AntForm, Input, Skeleton, Typography } from 'antd';
import type { SubmissionErrors } from 'final-form';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useAccount } from './useAccount';
import { PROFILE_LOAD_ERROR } from './ProfilePage';

export const EMAIL_CHANGE_REQUESTED = 'Successfully requested email change.';
export const EMAIL_CHANGE_ALREADY_PENDING = 'An email change request is already pending for this account.';

export interface ChangeEmailValues {
  email?: string;
  confirm_email?: string;
  reason?: string;
  certify?: boolean;
}

const FIELDS = ['email', 'confirm_email', 'reason', 'certify'];

const same = (a: unknown, b: unknown) => String(a ?? '').trim().toLowerCase() === String(b ?? '').trim().toLowerCase();

/** Spec section 5, email change: required and valid, and not the current address. */
export function newEmailRules(current: string): Validator {
  return composeValidators(
    required(RULE_MESSAGES.validEmailAddress),
    email(RULE_MESSAGES.validEmailAddress),
    lengthAtMost(MAX_MAIL_ADDRESS_LENGTH),
    (value) => (same(value, current) ? RULE_MESSAGES.sameEmail : undefined),
  );
}

const confirmRules: Validator = Object.assign(
  (value: unknown, all?: ChangeEmailValues) => (!same(value, all?.email) ? RULE_MESSAGES.emailsDontMatch : undefined),
  { isRequired: true },
);

const reasonRules = composeValidators(required(RULE_MESSAGES.changeEmailReason), lengthAtMost(LIMITS.reason));

function ChangeEmailForm({ account, surrogate }: { account: Account; surrogate: boolean }) {
  const navigate = useNavigate();
  const navigateWithFeedback = useNavigateWithFeedback();
  const emailRules = useMemo(() => newEmailRules(account.email), [account.email]);
  const confirmation = useConfirmation<string>();

  const submit = async (values: ChangeEmailValues): Promise<SubmissionErrors | undefined> => {
    const newEmail = (values.email ?? '').trim();
    try {
      if (await emailExists(newEmail)) return { email: RULE_MESSAGES.emailInUse };
    } catch (error) {
      return submissionErrors(error, FIELDS);
    }
    if (!(await confirmation.ask(newEmail))) return undefined;
    try {
      await requestEmailChange({ username: account.username, email: newEmail, reason: (values.reason ?? '').trim() });
      confirmation.finish();
      navigateWithFeedback(surrogate ? links.manageAccounts(account.username) : links.profile(), EMAIL_CHANGE_REQUESTED);
      return undefined;
    } catch (error) {
      confirmation.finish();
      return submissionErrors(error, FIELDS);
    }
  };

  const cancel = () => (surrogate ? navigate(-1) : navigate(links.profile()));

  return (
    <FormShell<ChangeEmailValues>
      onSubmit={submit}
      aria-label="Change email"
      submitLabel="Request Email Change"
      cancel={{ onClick: cancel, whileSubmitting: confirmation.modal.open }}
      style={{ maxWidth: 560 }}
      footer={
        <ConfirmModal {...confirmation.modal} title="Confirm Email Change" okText="Submit Request">
          <Typography.Paragraph>
            Request to change the email of <Typography.Text strong>{account.username}</Typography.Text> from{' '}
            <Typography.Text strong>{account.email}</Typography.Text> to <Typography.Text strong>{confirmation.subject}</Typography.Text>?
          </Typography.Paragraph>
          <Typography.Paragraph>An adjudicator reviews the request; both addresses are told about it by email.</Typography.Paragraph>
        </ConfirmModal>
      }
    >
      {surrogate && (
        <AntForm.Item label="Username" htmlFor="readonly-username">
          <Input id="readonly-username" value={account.username} readOnly variant="filled" />
        </AntForm.Item>
      )}
      <AntForm.Item label="Current email" htmlFor="readonly-current-email">
        <Input id="readonly-current-email" value={account.email} readOnly variant="filled" />
      </AntForm.Item>
      <TextField name="email" label="New email" type="email" autoComplete="email" maxLength={MAX_MAIL_ADDRESS_LENGTH} validate={emailRules} />
      <TextField name="confirm_email" label="Confirm new email" type="email" autoComplete="off" maxLength={MAX_MAIL_ADDRESS_LENGTH} validate={confirmRules} />
      <TextAreaField name="reason" label="Reason" maxLength={LIMITS.reason} rows={3} validate={reasonRules} />
      <CheckboxField
        name="certify"
        label={surrogate ? 'I certify that the account information is accurate.' : 'I certify that my account information is accurate.'}
        validate={mustBeChecked(RULE_MESSAGES.certifyAccurate)}
      />
    </FormShell>
  );
}

export function ChangeEmailPage() {
  const params = useParams<{ username?: string }>();
  const own = useSessionStore((s) => s.session?.username);
  const surrogate = params.username !== undefined;
  const username = params.username ?? own;
  const state = useAccount(username);

  return (
    <>
      <PageTitle>Change Email</PageTitle>
      {state.status === 'loading' && <Skeleton active aria-busy="true" />}
      {state.status === 'failed' &&
        (isNotFound(state.error) ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={MESSAGES.notFound}
            description={<Link to={links.profile()}>Go to your profile</Link>}
          />
        ) : (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={surrogate ? 'Unable to get account' : PROFILE_LOAD_ERROR}
            description={state.error instanceof Error ? state.error.message : undefined}
          />
        ))}
      {state.status === 'ready' &&
        (state.value.email_change_pending ? (
          <Alert
            type="info"
            showIcon
            role="status"
            title={EMAIL_CHANGE_ALREADY_PENDING}
            description={surrogate ? undefined : <Link to={links.profile()}>Back to your profile</Link>}
          />
        ) : (
          <ChangeEmailForm account={state.value} surrogate={surrogate} />
        ))}
    </>
  );
}
