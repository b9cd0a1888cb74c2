/**
 * The token create form (spec section 5): a name (required, at most 1024), at least one group
 * with its access level (read always; write only with write or admin rights; admin only with
 * admin rights), an expiry (a whole number from 1 to the configured maximum, in days or hours)
 * with a preview of the date (and the hour, for hours), and a warning when a token that short
 * cannot be revoked. Create is disabled while the form is invalid and once it was submitted.
 */
import {
  EXPIRY_UNITS,
  expiryAmountRule,
  expirySeconds,
  isRevocableLifetime,
  MAX_TOKEN_NAME_LENGTH,
  TOKEN_MESSAGES,
  tokenNameRule,
  tokenScope,
  type CreatedToken,
  type ExpiryUnit,
  type TokenGroup,
  type TokenLevel,
} from '@portal/api';
import { useConfiguration } from '@portal/shared';
import { FormShell, submissionErrors } from '@portal/shared/forms';
import { formatTokenDate } from '@portal/shared/components';
import { Alert, Button, Checkbox, Form as AntForm, Input, Radio, Space, Typography } from 'antd';
import type { SubmissionErrors } from 'final-form';
import { useState, type ReactNode } from 'react';
import { Field } from 'react-final-form';
import { createToken } from '../api/tokens';
import { TOKEN_TEXT } from '../messages';

interface TokenValues {
  description?: string;
  amount?: string;
  unit: ExpiryUnit;
  include: Record<string, boolean | undefined>;
  level: Record<string, TokenLevel>;
}

const FIELDS = ['description', 'groups', 'expiry'];

/** A field's message: the rule's once the user has left it (or tried to submit), else the server's. */
function messageOf(meta: { touched?: boolean; modified?: boolean; submitFailed?: boolean; error?: unknown; submitError?: unknown; dirtySinceLastSubmit?: boolean }): string | undefined {
  if ((meta.touched || meta.submitFailed) && typeof meta.error === 'string') return meta.error;
  if (!meta.dirtySinceLastSubmit && typeof meta.submitError === 'string') return meta.submitError;
  return undefined;
}

function Item({ id, label, message, extra, required, children }: { id?: string; label: ReactNode; message?: string; extra?: ReactNode; required?: boolean; children: ReactNode }) {
  return (
    <AntForm.Item label={label} htmlFor={id} required={required} validateStatus={message ? 'error' : undefined} help={message} extra={extra}>
      {children}
    </AntForm.Item>
  );
}

export function CreateTokenForm({ groups, onCreated, onCancel }: { groups: readonly TokenGroup[]; onCreated(token: CreatedToken): void; onCancel(): void }) {
  const config = useConfiguration();
  const max = config.artifacts_token_max_expiry;
  const threshold = config.artifacts_token_revocable_expiry;
  const amountRule = expiryAmountRule(max);
  const [done, setDone] = useState(false);
  const initialValues: TokenValues = {
    amount: String(config.artifacts_token_default_expiry),
    unit: 'days',
    include: groups.length === 1 ? { [groups[0]!.id]: true } : {},
    level: Object.fromEntries(groups.map((g) => [g.id, 'read' as TokenLevel])),
  };

  const validate = (values: TokenValues) => {
    const errors: Record<string, string> = {};
    const name = tokenNameRule((values.description ?? '').trim() === '' ? '' : values.description);
    if (name) errors.description = name;
    const amount = amountRule(values.amount ?? '');
    if (amount) errors.amount = amount;
    if (!groups.some((g) => values.include?.[g.id])) errors.groups = TOKEN_MESSAGES.groupsRequired;
    return errors;
  };

  const submit = async (values: TokenValues): Promise<SubmissionErrors | undefined> => {
    try {
      const created = await createToken({
        description: values.description ?? '',
        groups: groups.filter((g) => values.include[g.id]).map((g) => tokenScope(g.id, values.level[g.id] ?? 'read')),
        expiry: expirySeconds(Number(values.amount), values.unit),
      });
      setDone(true);
      onCreated(created);
      return undefined;
    } catch (error) {
      const errors = submissionErrors(error, FIELDS) as Record<string, string>;
      // The server names the expiry in seconds; the form shows it under the amount.
      if (errors.expiry) errors.amount = errors.expiry;
      return errors;
    }
  };

  return (
    <FormShell<TokenValues>
      onSubmit={submit}
      initialValues={initialValues}
      validate={validate}
      aria-label="Create a token"
      style={{ maxWidth: 720 }}
      buttons={(form) => (
        <Space>
          <Button type="primary" htmlType="submit" loading={form.submitting} disabled={form.hasValidationErrors || form.submitting || done}>
            Create
          </Button>
          <Button onClick={onCancel} disabled={form.submitting}>
            Cancel
          </Button>
        </Space>
      )}
    >
      {({ values }) => {
        const amountValid = amountRule(values.amount ?? '') === undefined;
        const seconds = amountValid ? expirySeconds(Number(values.amount), values.unit) : undefined;
        const expiresAt = seconds === undefined ? undefined : new Date(Date.now() + seconds * 1000);
        return (
          <>
            <Field<string> name="description">
              {({ input, meta }) => (
                <Item id="token-name" label="Token name" required message={messageOf(meta)}>
                  <Input {...input} id="token-name" maxLength={MAX_TOKEN_NAME_LENGTH + 1} aria-required aria-invalid={messageOf(meta) ? true : undefined} />
                </Item>
              )}
            </Field>
            <Field name="groups" subscription={{ error: true, submitFailed: true, submitError: true, dirtySinceLastSubmit: true }}>
              {({ meta }) => {
                const anyTouched = groups.some((g) => values.include?.[g.id] !== initialValues.include[g.id]);
                const message = messageOf({ ...meta, touched: anyTouched });
                return (
                  <fieldset aria-describedby={message ? 'token-groups-error' : undefined} style={{ border: 0, padding: 0, margin: '0 0 24px' }}>
                    <legend style={{ fontSize: 14, marginBottom: 8, border: 0 }}>Groups and access</legend>
                    <Space orientation="vertical" size={8}>
                      {groups.map((group) => (
                        <Space key={group.id} wrap size={16}>
                          <Field<boolean> name={`include.${group.id}`} type="checkbox">
                            {({ input }) => (
                              <Checkbox checked={input.checked} onChange={(e) => input.onChange(e.target.checked)}>
                                {group.id} ({group.name})
                              </Checkbox>
                            )}
                          </Field>
                          <Field<TokenLevel> name={`level.${group.id}`}>
                            {({ input }) => (
                              <Radio.Group
                                aria-label={`Access in ${group.id}`}
                                value={input.value}
                                disabled={!values.include?.[group.id]}
                                onChange={(e) => input.onChange(e.target.value as TokenLevel)}
                                options={group.levels.map((level) => ({ value: level, label: TOKEN_TEXT.levels[level] }))}
                              />
                            )}
                          </Field>
                        </Space>
                      ))}
                    </Space>
                    {message && (
                      <Typography.Paragraph id="token-groups-error" type="danger" role="alert" style={{ marginTop: 8, marginBottom: 0 }}>
                        {message}
                      </Typography.Paragraph>
                    )}
                  </fieldset>
                );
              }}
            </Field>
            <Field<string> name="amount">
              {({ input, meta }) => (
                <Item
                  id="token-expiry"
                  label="Expires in"
                  required
                  message={messageOf(meta)}
                  extra={expiresAt && <span aria-live="polite">{TOKEN_TEXT.preview(formatTokenDate(expiresAt, values.unit === 'hours'))}</span>}
                >
                  <Space wrap>
                    <Input
                      {...input}
                      id="token-expiry"
                      inputMode="numeric"
                      style={{ width: 120 }}
                      aria-required
                      aria-invalid={messageOf(meta) ? true : undefined}
                    />
                    <Field<ExpiryUnit> name="unit">
                      {({ input: unit }) => (
                        <Radio.Group
                          aria-label="Unit"
                          value={unit.value}
                          onChange={(e) => unit.onChange(e.target.value as ExpiryUnit)}
                          options={EXPIRY_UNITS.map((u) => ({ value: u, label: u === 'days' ? 'Days' : 'Hours' }))}
                        />
                      )}
                    </Field>
                  </Space>
                </Item>
              )}
            </Field>
            {seconds !== undefined && !isRevocableLifetime(seconds, threshold) && (
              <Alert type="warning" showIcon title={TOKEN_MESSAGES.notRevocableWarning(threshold)} style={{ marginBottom: 24 }} />
            )}
          </>
        );
      }}
    </FormShell>
  );
}
