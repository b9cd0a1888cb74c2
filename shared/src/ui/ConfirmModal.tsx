import { Modal } from 'antd';
import { useCallback, useRef, useState, type ReactNode } from 'react';

/** Spec section 9: modal width. */
export const MODAL_WIDTH = 600;

export interface ConfirmModalProps {
  readonly open: boolean;
  readonly title: ReactNode;
  readonly children?: ReactNode;
  /** The action's label (spec section 2, Modals: 'Approve' unless told). */
  readonly okText?: string;
  readonly cancelText?: string;
  /** The action is running: its button spins and Cancel still closes. */
  readonly confirmLoading?: boolean;
  onOk(): void;
  onCancel(): void;
}

/** The confirm modal of spec section 2: the action with its label, and Cancel; 600 px wide. */
export function ConfirmModal({ open, title, children, okText = 'Approve', cancelText = 'Cancel', confirmLoading, onOk, onCancel }: ConfirmModalProps) {
  return (
    <Modal
      open={open}
      title={title}
      width={MODAL_WIDTH}
      okText={okText}
      cancelText={cancelText}
      confirmLoading={confirmLoading}
      onOk={onOk}
      onCancel={onCancel}
      destroyOnHidden
      mask={{ closable: !confirmLoading }}
    >
      {children}
    </Modal>
  );
}

export interface Confirmation<T> {
  /** Opens the modal about `subject`; true when the user confirms, false when they cancel. */
  ask(subject: T): Promise<boolean>;
  /** Closes the modal once the confirmed action has run (succeeded or failed). */
  finish(): void;
  /** What the open modal asks about; undefined while it is closed. */
  readonly subject: T | undefined;
  /** The props that tie a ConfirmModal to this confirmation. */
  readonly modal: Pick<ConfirmModalProps, 'open' | 'confirmLoading' | 'onOk' | 'onCancel'>;
}

/**
 * Confirm-then-act inside a form's submit: `if (!(await confirmation.ask(x))) return;` then run
 * the action with the modal still open (its button spinning) and `finish()` after it. Cancel
 * closes the modal and answers false.
 */
export function useConfirmation<T = true>(): Confirmation<T> {
  const [subject, setSubject] = useState<{ value: T }>();
  const [sending, setSending] = useState(false);
  const answer = useRef<(confirmed: boolean) => void>(undefined);

  const finish = useCallback(() => {
    setSubject(undefined);
    setSending(false);
    answer.current = undefined;
  }, []);
  const ask = useCallback(
    (value: T) =>
      new Promise<boolean>((resolve) => {
        answer.current = resolve;
        setSubject({ value });
      }),
    [],
  );

  return {
    ask,
    finish,
    subject: subject?.value,
    modal: {
      open: subject !== undefined,
      confirmLoading: sending,
      onOk: () => {
        setSending(true);
        answer.current?.(true);
      },
      onCancel: () => {
        const resolve = answer.current;
        finish();
        resolve?.(false);
      },
    },
  };
}
