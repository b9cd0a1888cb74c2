/**
 * The profile's fields (spec sections 2 and 5), as both the sign-up form and /update-profile
 * show them: contact and address, organization, supervisor, and the reason for the account,
 * each with the shared rule the server also runs.
 */
import { LIMITS, MAX_MAIL_ADDRESS_LENGTH, PROFILE_RULES } from '@portal/api';
import { TextAreaField, TextField } from '@portal/shared/forms';
import { Typography } from 'antd';
import type { ReactNode } from 'react';

/** A titled group of fields laid out in columns that wrap on narrow screens. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
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

/**
 * The reason for the account is a reason box: 150 characters (spec section 9). A reason stored
 * before that limit (`storedReason`) may be kept unchanged; the box then allows its length.
 */
export function ProfileFields({ reasonHelp, storedReason = '' }: { reasonHelp?: ReactNode; storedReason?: string }) {
  const r = PROFILE_RULES;
  const reasonLimit = Math.max(LIMITS.reason, storedReason.length);
  const validateReason = Object.assign(
    (value: unknown) => (storedReason !== '' && typeof value === 'string' && value.trim() === storedReason ? undefined : r.reason(value)),
    { isRequired: true },
  );
  return (
    <>
      <Section title="Contact and address">
        <TextField name="phone" label="Business phone" autoComplete="work tel" maxLength={LIMITS.phone} validate={r.phone} />
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
        <TextField name="supervisor_email" label="Supervisor email" type="email" maxLength={MAX_MAIL_ADDRESS_LENGTH} validate={r.supervisor_email} />
        <TextField name="supervisor_phone" label="Supervisor phone" maxLength={LIMITS.phone} validate={r.supervisor_phone} />
      </Section>
      <TextAreaField name="reason" label="Reason for account" maxLength={reasonLimit} validate={validateReason} rows={5} extra={reasonHelp} />
    </>
  );
}
