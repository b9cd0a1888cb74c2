/**
 * /request-account, 'Sign Up for an account' (spec sections 2 and 5): every field required and
 * validated on submit with the shared rules, the server's answer per field shown beside it; with
 * smart-card support the applicant signs up with the CAC (the browser presents it) or asks for a
 * CAC exception, naming a US Government sponsor. Then 'Submission Success'.
 */
import {
  ACCOUNT_REQUEST_RULES,
  ApiError,
  contactAddress,
  FormSubmitError,
  LIMITS,
  PageTitle,
  RULE_MESSAGES,
  SecurityChallenge,
  sponsorEmailRules,
  submissionErrors,
  TextAreaField,
  TextField,
  useConfiguration,
  withSponsor,
  type Validator,
} from '@portal/shared';
import { Alert, Button, Form as AntForm, Radio, Result, Typography } from 'antd';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Field, Form } from 'react-final-form';
import { Link } from 'react-router-dom';
import { submitAccountRequest, type AccountRequest } from '../../api/visitors';
import { CHALLENGE_REQUIRED, INVALID_CHALLENGE } from '../verification/VerificationFlow';

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

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset style={{ border: 0, padding: 0, margin: '0 0 8px' }}>
      <legend>
        <Typography.Title level={4} style={{ marginBottom: 12 }}>
          {title}
        </Typography.Title>
      </legend>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))', columnGap: 24 }}>{children}</div>
    </fieldset>
  );
}

export function RequestAccountPage() {
  const configuration = useConfiguration();
  const [submitted, setSubmitted] = useState(false);
  // A ref, not state: the submit handler must see the solution reported just before the click.
  const payload = useRef<string | undefined>(undefined);
  const setPayload = useCallback((value: string | undefined) => {
    payload.current = value;
  }, []);
  const [generation, setGeneration] = useState(0);
  const [challengeError, setChallengeError] = useState<string>();
  const cacSupport = configuration.cac_support;
  const contact = contactAddress(configuration);

  if (submitted) {
    return (
      <>
        <PageTitle>{SUBMISSION_SUCCESS}</PageTitle>
        <Result
          status="success"
          title={SUBMISSION_SUCCESS}
          subTitle="Your account request has been received. We have sent you an email; you will be notified when it has been reviewed."
          extra={<Link to="/login">Back to Sign-In</Link>}
        />
      </>
    );
  }

  const submit = async (values: AccountRequestValues) => {
    if (!payload.current) {
      setChallengeError(CHALLENGE_REQUIRED);
      return undefined;
    }
    setChallengeError(undefined);
    try {
      await submitAccountRequest(accountRequestBody(values, payload.current), cacSupport && values.cac_choice === 'cac');
      setSubmitted(true);
      return undefined;
    } catch (error) {
      // A challenge is good for one attempt: every attempt gets a new one.
      setGeneration((g) => g + 1);
      if (error instanceof ApiError && error.message.includes(INVALID_CHALLENGE)) {
        setChallengeError(error.message);
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
      <Form<AccountRequestValues> onSubmit={submit} initialValues={cacSupport ? { cac_choice: 'cac' } : {}}>
        {({ handleSubmit, submitting, values }) => (
          <form onSubmit={handleSubmit} noValidate aria-label="Sign Up for an account" style={{ maxWidth: 880 }}>
            <AntForm layout="vertical" component={false}>
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
                <TextField name="username" label="Username (firstname.lastname recommended)" autoComplete="username" maxLength={40} validate={r.username} />
                <TextField name="phone" label="Business phone" type="text" autoComplete="tel" maxLength={LIMITS.phone} validate={r.phone} />
                <TextField name="email" label="Email" type="email" autoComplete="email" maxLength={254} validate={r.email} />
                <TextField name="email_confirmation" label="Confirm email" type="email" autoComplete="email" maxLength={254} validate={confirmEmail} />
              </Section>
              <Section title="Business address">
                <TextField name="street" label="Street" autoComplete="street-address" maxLength={LIMITS.street} validate={r.street} />
                <TextField name="city" label="City" autoComplete="address-level2" maxLength={LIMITS.city} validate={r.city} />
                <TextField name="state" label="State" autoComplete="address-level1" maxLength={LIMITS.state} validate={r.state} />
                <TextField name="zip" label="Postal code" autoComplete="postal-code" maxLength={LIMITS.zip} validate={r.zip} />
                <TextField name="country" label="Country" autoComplete="country-name" maxLength={LIMITS.country} validate={r.country} />
              </Section>
              <Section title="Organization">
                <TextField name="company" label="Company or government office symbol" autoComplete="organization" maxLength={LIMITS.text} validate={r.company} />
                <TextField name="project" label="Project" maxLength={LIMITS.text} validate={r.project} />
              </Section>
              <Section title="Supervisor">
                <TextField name="supervisor_first_name" label="Supervisor first name" maxLength={LIMITS.text} validate={r.supervisor_first_name} />
                <TextField name="supervisor_last_name" label="Supervisor last name" maxLength={LIMITS.text} validate={r.supervisor_last_name} />
                <TextField name="supervisor_email" label="Supervisor email" type="email" maxLength={254} validate={r.supervisor_email} />
                <TextField name="supervisor_phone" label="Supervisor phone" maxLength={LIMITS.phone} validate={r.supervisor_phone} />
              </Section>
              <TextAreaField name="reason" label="Reason for account" maxLength={LIMITS.comment} validate={r.reason} rows={5} extra={REASON_HELP} />
              <SecurityChallenge generation={generation} onSolved={setPayload} error={challengeError} />
              <Button type="primary" htmlType="submit" loading={submitting}>
                Submit Request
              </Button>
              <FormSubmitError />
            </AntForm>
          </form>
        )}
      </Form>
    </>
  );
}
