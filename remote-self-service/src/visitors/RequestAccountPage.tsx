/**
 * /request-account, 'Sign Up for an account' (spec sections 2 and 5): every field required and
 * validated on submit with the shared rules, the server's answer per field shown beside it; with
 * smart-card support the applicant signs up with the CAC (the browser presents it) or asks for a
 * CAC exception, naming a US Government sponsor. Then 'Submission Success'.
 */
import { ACCOUNT_REQUEST_RULES, contactAddress, LIMITS, links, MAX_MAIL_ADDRESS_LENGTH, RULE_MESSAGES, sponsorEmailRules, type Validator, withSponsor } from '@portal/api';
import { ApiError, PageTitle, SecurityChallenge, useChallengeSolution, useConfiguration } from '@portal/shared';
import { FormShell, submissionErrors, TextField } from '@portal/shared/forms';
import { Alert, Form as AntForm, Radio, Result, Typography } from 'antd';
import { useState } from 'react';
import { Field } from 'react-final-form';
import { Link } from 'react-router-dom';
import { submitAccountRequest, type AccountRequest } from '../api/visitors';
import { ProfileFields, Section } from '../account/ProfileFields';
import { INVALID_CHALLENGE } from './VerificationFlow';

export interface AccountRequestValues {
  first_name?: string;
  last_name?: string;
  username?: string;
  email?: string;
  email_confirmation?: string;
  phone?: string;
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  company?: string;
  project?: string;
  supervisor_first_name?: string;
  supervisor_last_name?: string;
  supervisor_email?: string;
  supervisor_phone?: string;
  reason?: string;
  /** With smart-card support: sign up with the CAC, or ask for an exception. */
  cac_choice?: 'cac' | 'exception';
  sponsor_email?: string;
}

export const INSERT_CAC_WARNING = 'Insert your CAC before you continue: your browser will ask you to choose its certificate when you submit.';
export const REASON_HELP = 'Business information only: your role and why you need the platform. Do not enter personal information.';
export const SUBMISSION_SUCCESS = 'Submission Success';
/** Spec section 5's recommendation, under the username field (in its label it pushed the field out of line). */
export const USERNAME_HINT = 'firstname.lastname recommended';
export const REQUEST_RECEIVED = 'Your account request has been received.';

const confirmEmail: Validator = Object.assign(
  (value: unknown, all?: AccountRequestValues) => {
    if (value === undefined || value === null || String(value).trim() === '') return 'Please confirm your email address';
    return String(value).trim().toLowerCase() !== (all?.email ?? '').trim().toLowerCase() ? RULE_MESSAGES.emailMismatch : undefined;
  },
  { isRequired: true },
);

const sponsorWhenException: Validator = Object.assign(
  (value: unknown, all?: AccountRequestValues) => (all?.cac_choice === 'exception' ? sponsorEmailRules(value) : undefined),
  { isRequired: true },
);

const trim = (value: string | undefined) => (value ?? '').trim();

/** The call's body from the form's values (the sponsor appended to the reason for an exception). */
export function accountRequestBody(values: AccountRequestValues, botChallengeResponse: string): AccountRequest {
  const reason = trim(values.reason);
  return {
    first_name: trim(values.first_name),
    last_name: trim(values.last_name),
    username: trim(values.username),
    email: trim(values.email),
    phone: trim(values.phone),
    address: { street: trim(values.street), city: trim(values.city), state: trim(values.state), zip: trim(values.zip), country: trim(values.country) },
    company: trim(values.company),
    project: trim(values.project),
    reason: values.cac_choice === 'exception' ? withSponsor(reason, trim(values.sponsor_email)) : reason,
    supervisor: {
      first_name: trim(values.supervisor_first_name),
      last_name: trim(values.supervisor_last_name),
      email: trim(values.supervisor_email),
      phone: trim(values.supervisor_phone),
    },
    botChallengeResponse,
  };
}

export function RequestAccountPage() {
  const configuration = useConfiguration();
  const [submitted, setSubmitted] = useState(false);
  const challenge = useChallengeSolution();
  const cacSupport = configuration.cac_support;
  const contact = contactAddress(configuration);

  if (submitted) {
    return (
      <>
        <PageTitle>{SUBMISSION_SUCCESS}</PageTitle>
        {/* 'Submission Success' once, as the page's title, not again as the result's. */}
        <Result
          status="success"
          title={REQUEST_RECEIVED}
          subTitle="We have sent you an email; you will be notified when it has been reviewed."
          extra={<Link to={links.login()}>Back to Sign-In</Link>}
        />
      </>
    );
  }

  const submit = async (values: AccountRequestValues) => {
    const botChallengeResponse = challenge.take();
    if (!botChallengeResponse) return undefined;
    try {
      await submitAccountRequest(accountRequestBody(values, botChallengeResponse), cacSupport && values.cac_choice === 'cac');
      setSubmitted(true);
      return undefined;
    } catch (error) {
      challenge.renew();
      if (error instanceof ApiError && error.message.includes(INVALID_CHALLENGE)) {
        challenge.setError(error.message);
        return undefined;
      }
      return submissionErrors(error);
    }
  };

  const r = ACCOUNT_REQUEST_RULES;
  return (
    <>
      <PageTitle>Sign Up for an account</PageTitle>
      <Typography.Paragraph style={{ maxWidth: 880 }}>
        Accounts are for US Government employees and contractors working on government projects. Every field is required.
        {contact && (
          <>
          {' '}For help, contact <a href={`mailto:${contact}`}>{contact}</a>.
          </>
        )}
      </Typography.Paragraph>
      <FormShell<AccountRequestValues>
        onSubmit={submit}
        initialValues={cacSupport ? { cac_choice: 'cac' } : {}}
        aria-label="Sign Up for an account"
        submitLabel="Submit Request"
        style={{ maxWidth: 880 }}
      >
        {({ values }) => (
          <>
              {cacSupport && (
                <Section title="Authentication">
                  <div style={{ gridColumn: '1 / -1' }}>
                    <Field<string> name="cac_choice">
                      {({ input }) => (
                        <AntForm.Item label="How will you sign in?" htmlFor="field-cac_choice">
                          <Radio.Group
                            id="field-cac_choice"
                            value={input.value}
                            onChange={(event) => input.onChange(event.target.value)}
                            options={[
                              { value: 'cac', label: 'CAC authentication' },
                              { value: 'exception', label: 'CAC exception (I do not have a CAC)' },
                            ]}
                          />
                        </AntForm.Item>
                      )}
                    </Field>
                    {values.cac_choice === 'cac' ? (
                      <Alert type="warning" showIcon title={INSERT_CAC_WARNING} style={{ marginBottom: 16 }} />
                    ) : (
                      <TextField name="sponsor_email" label="US Government sponsor email" type="email" maxLength={254} validate={sponsorWhenException} />
                    )}
                  </div>
                </Section>
              )}
              <Section title="About you">
                <TextField name="first_name" label="First name" autoComplete="given-name" maxLength={LIMITS.text} validate={r.first_name} />
                <TextField name="last_name" label="Last name" autoComplete="family-name" maxLength={LIMITS.text} validate={r.last_name} />
                <TextField name="username" label="Username" extra={USERNAME_HINT} autoComplete="username" maxLength={40} validate={r.username} />
                <TextField name="email" label="Email" type="email" autoComplete="email" maxLength={MAX_MAIL_ADDRESS_LENGTH} validate={r.email} />
                <TextField name="email_confirmation" label="Confirm email" type="email" autoComplete="email" maxLength={MAX_MAIL_ADDRESS_LENGTH} validate={confirmEmail} />
              </Section>
              <ProfileFields reasonHelp={REASON_HELP} />
              <SecurityChallenge generation={challenge.generation} onSolved={challenge.onSolved} error={challenge.error} />
          </>
        )}
      </FormShell>
    </>
  );
}
