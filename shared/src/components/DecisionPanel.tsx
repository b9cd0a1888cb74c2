/**
 * The decision on a request (spec sections 2, 4, 5 and 8): a comment with a live counter and one
 * button per decision the server allows this caller. Approval passes the confirm modal; denial
 * and 'Request More Information' act at once, the latter only with a comment. Buttons are
 * disabled while a decision runs. Success hands over to `onDecided`; a failure says whom to
 * contact and keeps the comment. The adjudication queues and group administration both use it.
 */
import { type Decision, lengthAtMost, RULE_MESSAGES } from '@portal/api';
import { ApiError, ConfirmModal, useConfirmation } from '@portal/shared';
import { FormShell, TextAreaField } from '@portal/shared/forms';
import { Button, Flex, Typography } from 'antd';
import type { SubmissionErrors } from 'final-form';
import { useId, useMemo, useState } from 'react';
import { AdjudicationFailure } from './AdjudicationFailure.js';
import { errorText } from './useLoaded.js';

/** Spec section 4, the approval's confirm modal. */
export const CONFIRM_APPROVAL = 'Are you sure you want to approve this request?';

const ORDER: readonly Decision[] = ['approved', 'denied', 'incomplete'];

interface DecisionValues {
  comment?: string;
  /** The button pressed (set just before the submit). */
  decision?: Decision;
}

/** 'Request More Information' needs a comment (spec section 4); nothing is sent without one. */
function validate(values: DecisionValues) {
  return values.decision === 'incomplete' && (values.comment ?? '').trim() === '' ? { comment: RULE_MESSAGES.commentNeeded } : {};
}

export interface DecisionPanelProps {
  readonly request: { readonly id: number; readonly status: string; readonly decisions: readonly Decision[] };
  /** The buttons' labels; a decision without one is not offered. */
  readonly buttons: Readonly<Partial<Record<Decision, string>>>;
  readonly commentLimit: number;
  /** What the confirm modal names ('Membership Request 12'). */
  readonly describe: string;
  /** Sends the decision (rejects with the server's error). */
  decide(decision: Decision, comment: string): Promise<unknown>;
  /** After a decision succeeded (navigate on with feedback). */
  onDecided(decision: Decision): void;
}

export function DecisionPanel({ request, buttons, commentLimit, describe, decide, onDecided }: DecisionPanelProps) {
  const headingId = useId();
  const commentRules = useMemo(() => lengthAtMost(commentLimit), [commentLimit]);
  const confirmation = useConfirmation();
  const [failure, setFailure] = useState<string>();

  // Deny is hidden on a request already denied (spec section 2); the server lists the rest.
  const decisions = ORDER.filter((d) => request.decisions.includes(d) && buttons[d] && !(d === 'denied' && request.status === 'denied'));

  const submit = async ({ decision, comment }: DecisionValues): Promise<SubmissionErrors | undefined> => {
    if (!decision) return undefined;
    setFailure(undefined);
    if (decision === 'approved' && !(await confirmation.ask(true))) return undefined;
    try {
      await decide(decision, (comment ?? '').trim());
      confirmation.finish();
      onDecided(decision);
      return undefined;
    } catch (error) {
      confirmation.finish();
      setFailure(errorText(error));
      const fieldMessage = error instanceof ApiError ? error.fields.comment : undefined;
      return fieldMessage ? { comment: fieldMessage } : undefined;
    }
  };

  return (
    <section aria-labelledby={headingId} style={{ marginTop: 24 }}>
      <Typography.Title level={3} id={headingId}>
        Decision
      </Typography.Title>
      <FormShell<DecisionValues>
        onSubmit={submit}
        validate={validate}
        style={{ maxWidth: 720 }}
        buttons={({ submitting, form, values }) => (
          <Flex gap="small" wrap>
            {decisions.map((decision) => (
              <Button
                key={decision}
                type={decision === 'approved' ? 'primary' : 'default'}
                danger={decision === 'denied'}
                disabled={submitting}
                loading={submitting && values.decision === decision && (decision !== 'approved' || confirmation.modal.confirmLoading)}
                onClick={() => {
                  form.change('decision', decision);
                  void form.submit();
                }}
              >
                {buttons[decision]}
              </Button>
            ))}
          </Flex>
        )}
        footer={
          <>
            {failure && <AdjudicationFailure error={failure} />}
            <ConfirmModal {...confirmation.modal} title={CONFIRM_APPROVAL} okText="Approve">
              <Typography.Paragraph>{describe}</Typography.Paragraph>
            </ConfirmModal>
          </>
        }
      >
        <TextAreaField name="comment" label="Comment" maxLength={commentLimit} rows={4} validate={commentRules} />
      </FormShell>
    </section>
  );
}
