import { Alert } from 'antd';
import { contactAddress } from '@portal/api';
import { useConfiguration } from '@portal/shared';

/** Spec section 8: '{error} If the problem persists, contact {contact email}'. */
export function adjudicationFailureText(error: string, contact: string): string {
  return `${error} If the problem persists, contact ${contact}`;
}

/** A failed decision: the server's message, then whom to write to, as a mailto link. */
export function AdjudicationFailure({ error }: { error: string }) {
  const contact = contactAddress(useConfiguration());
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      style={{ marginTop: 16 }}
      title={
        <>
          {`${error} If the problem persists, contact `}
          <a href={`mailto:${contact}`}>{contact}</a>
        </>
      }
    />
  );
}
