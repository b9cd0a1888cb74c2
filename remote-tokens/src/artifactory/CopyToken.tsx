/** The copy-once view (spec section 4): the new token shown once, Copy, and Continue back to the list. */
import type { CreatedToken } from '@portal/api';
import { Alert, Button, Input, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { TOKEN_TEXT } from '../messages';

export function CopyToken({ token, onContinue }: { token: CreatedToken; onContinue(): void }) {
  const field = useRef<HTMLTextAreaElement | null>(null);
  const [copied, setCopied] = useState<'yes' | 'no'>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.reference_token);
      setCopied('yes');
    } catch {
      field.current?.focus();
      field.current?.select();
      setCopied('no');
    }
  };
  return (
    <section aria-labelledby="new-token-heading">
      {/* A name may be 1,024 characters: at most two lines of it are drawn (the whole is read out
          and shown on hover), so that the token below stays in view. The clamp is on an inner
          span: antd's Title sets its own -webkit-line-clamp (none without its ellipsis). */}
      <Typography.Title level={3} id="new-token-heading" title={TOKEN_TEXT.created(token.description)}>
        <span style={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' }}>
          {TOKEN_TEXT.created(token.description)}
        </span>
      </Typography.Title>
      <Alert type="warning" showIcon title={TOKEN_TEXT.copyOnce} style={{ marginBottom: 16 }} />
      <label htmlFor="new-token" style={{ display: 'block', marginBottom: 8 }}>
        Your new token
      </label>
      {/* A block of its own: the buttons go under the box, not beside its last line. */}
      <div style={{ maxWidth: 720 }}>
        <Input.TextArea
          id="new-token"
          ref={(el) => {
            field.current = el?.resizableTextArea?.textArea ?? null;
          }}
          value={token.reference_token}
          readOnly
          rows={2}
          style={{ fontFamily: 'monospace', display: 'block' }}
          onFocus={(e) => e.target.select()}
        />
      </div>
      <Space style={{ marginTop: 16, display: 'flex' }} wrap>
        <Button type="primary" onClick={() => void copy()}>
          Copy
        </Button>
        <Button onClick={onContinue}>{TOKEN_TEXT.continue}</Button>
        <span role="status">{copied === 'yes' ? TOKEN_TEXT.copied : copied === 'no' ? TOKEN_TEXT.copyFailed : ''}</span>
      </Space>
    </section>
  );
}
