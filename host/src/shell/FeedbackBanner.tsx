import { feedbackOf } from '@portal/shared';
import { Alert } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';

/** The message a page passed through navigation (spec section 2, Chrome), until dismissed. */
export function FeedbackBanner() {
  const location = useLocation();
  const message = feedbackOf(location.state);
  const [dismissed, setDismissed] = useState<string>();
  if (!message || dismissed === location.key) return null;
  return (
    <Alert
      type="success"
      showIcon
      role="status"
      title={message}
      closable={{ 'aria-label': 'Dismiss' }}
      onClose={() => setDismissed(location.key)}
      style={{ marginBottom: 16 }}
    />
  );
}
