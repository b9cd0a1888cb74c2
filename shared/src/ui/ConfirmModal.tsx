import { Modal } from 'antd';
import type { ReactNode } from 'react';

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
