/**
 * The Actions of account administration (spec sections 2, 4 and 5): a collapsible Lock Account
 * box (reason required) or Unlock Account box (reason optional), by the account's state and the
 * caller's LOCK_ACCOUNT / UNLOCK_ACCOUNT, and a collapsible Close Account box (reason required,
 * SUBMIT_SURROGATE_REQUEST) whose button asks 'Are you sure?' first. A closed account shows
 * 'Account is closed.' and nothing else.
 */
import { type Account, accountStatus, composeValidators, lengthAtMost, LIMITS, required, RULE_MESSAGES, type Validator } from '@portal/api';
import { ApiError, ConfirmModal, useConfirmation, useHasPermission, useNavigateWithFeedback } from '@portal/shared';
import { FormShell, TextAreaField } from '@portal/shared/forms';
import { closeAccount, lockAccount, unlockAccount } from '../api/accountAdmin';
import { Button, Collapse, Typography, type CollapseProps } from 'antd';
import { FORM_ERROR, type SubmissionErrors } from 'final-form';
import { useId, type ReactNode } from 'react';

export const ACCOUNT_CLOSED_NOTE = 'Account is closed.';
export const CLOSE_CONFIRM_TITLE = 'Are you sure?';
export const closeConfirmText = (username: string) => `Are you sure you wish to close account <${username}>?`;

/** Spec section 4: the feedback after each action. */
export const ACTION_FEEDBACK = {
  locked: (username: string) => `The account for ${username} has been locked.`,
  unlocked: (username: string) => `The account for ${username} has been unlocked.`,
  closed: (username: string) => `The account for ${username} has been closed.`,
} as const;

const requiredReason = composeValidators(required(RULE_MESSAGES.reasonRequired), lengthAtMost(LIMITS.reason));
const optionalReason = lengthAtMost(LIMITS.reason);

interface ReasonValues {
  [field: string]: string | undefined;
}

/** The server's message under the reason when it names the reason (its `comment` or `reason`), else below the button. */
function reasonErrors(error: unknown, field: string): SubmissionErrors {
  const fields = error instanceof ApiError ? error.fields : {};
  const message = fields.comment ?? fields.reason;
  if (message) return { [field]: message };
  return { [FORM_ERROR]: error instanceof Error && error.message ? error.message : 'Unknown server error' };
}

interface ReasonFormProps {
  /** The field's name (unique on the page: its id comes from it). */
  readonly field: string;
  /** The form's name and its button's label. */
  readonly action: string;
  readonly validate: Validator;
  /** Asks before running (the close). */
  readonly confirm?: { readonly title: string; readonly text: string };
  run(reason: string): Promise<unknown>;
  onDone(): void;
}

function ReasonForm({ field, action, validate, confirm, run, onDone }: ReasonFormProps) {
  const confirmation = useConfirmation();

  const submit = async (values: ReasonValues): Promise<SubmissionErrors | undefined> => {
    if (confirm && !(await confirmation.ask(true))) return undefined;
    try {
      await run((values[field] ?? '').trim());
      confirmation.finish();
      onDone();
      return undefined;
    } catch (error) {
      confirmation.finish();
      return reasonErrors(error, field);
    }
  };

  return (
    <section aria-label={action}>
      <FormShell<ReasonValues>
        onSubmit={submit}
        buttons={({ submitting }) => (
          // Red but for the unlock; with a confirm modal it spins only once the action runs.
          <Button type="primary" danger={action !== 'Unlock Account'} htmlType="submit" loading={submitting && (!confirm || confirmation.modal.confirmLoading)} disabled={submitting}>
            {action}
          </Button>
        )}
        footer={
          confirm && (
            <ConfirmModal {...confirmation.modal} title={confirm.title} okText={action}>
              <Typography.Paragraph>{confirm.text}</Typography.Paragraph>
            </ConfirmModal>
          )
        }
      >
        <TextAreaField name={field} label={validate.isRequired ? 'Reason' : 'Reason (optional)'} maxLength={LIMITS.reason} rows={3} validate={validate} />
      </FormShell>
    </section>
  );
}

/** The Actions section: what this caller may do to this account; none at all when nothing. */
export function AccountActions({ account, returnTo }: { account: Account; returnTo: string }) {
  const navigateWithFeedback = useNavigateWithFeedback();
  const canLock = useHasPermission('LOCK_ACCOUNT');
  const canUnlock = useHasPermission('UNLOCK_ACCOUNT');
  const canClose = useHasPermission('SUBMIT_SURROGATE_REQUEST');
  const { username } = account;
  const status = accountStatus(account);
  const headingId = useId();

  const section = (content: ReactNode) => (
    <section aria-labelledby={headingId} style={{ marginTop: 24 }}>
      <Typography.Title level={3} id={headingId}>
        Actions
      </Typography.Title>
      {content}
    </section>
  );
  if (status === 'Closed') return section(<Typography.Paragraph>{ACCOUNT_CLOSED_NOTE}</Typography.Paragraph>);

  const items: NonNullable<CollapseProps['items']> = [];
  if (status === 'Active' && canLock) {
    items.push({
      key: 'lock',
      label: 'Lock Account',
      children: (
        <ReasonForm
          field="lock_reason"
          action="Lock Account"
          validate={requiredReason}
          run={(reason) => lockAccount(username, reason)}
          onDone={() => navigateWithFeedback(returnTo, ACTION_FEEDBACK.locked(username))}
        />
      ),
    });
  }
  if (status === 'Locked' && canUnlock) {
    items.push({
      key: 'unlock',
      label: 'Unlock Account',
      children: (
        <ReasonForm
          field="unlock_reason"
          action="Unlock Account"
          validate={optionalReason}
          run={(reason) => unlockAccount(username, reason)}
          onDone={() => navigateWithFeedback(returnTo, ACTION_FEEDBACK.unlocked(username))}
        />
      ),
    });
  }
  if (canClose) {
    items.push({
      key: 'close',
      label: 'Close Account',
      children: (
        <ReasonForm
          field="close_reason"
          action="Close Account"
          validate={requiredReason}
          confirm={{ title: CLOSE_CONFIRM_TITLE, text: closeConfirmText(username) }}
          run={(reason) => closeAccount(username, reason)}
          onDone={() => navigateWithFeedback(returnTo, ACTION_FEEDBACK.closed(username))}
        />
      ),
    });
  }
  // Nothing this caller may do: no Actions section at all.
  if (items.length === 0) return null;
  return section(<Collapse items={items} />);
}
