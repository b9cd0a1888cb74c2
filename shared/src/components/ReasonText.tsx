import { Typography } from 'antd';

/** The portal's note where a request carries no reason (a membership change's reason is optional). */
export const NO_REASON = 'No reason given.';

/**
 * A request's reason as its sender wrote it (line breaks kept) or, when they gave none, the
 * portal's note in secondary italics: set apart, so that nobody reads it as the requester's words
 * (a bare 'None' was).
 */
export function ReasonText({ reason }: { readonly reason: string | null | undefined }) {
  if ((reason ?? '').trim() === '') {
    return (
      <Typography.Text type="secondary" italic>
        {NO_REASON}
      </Typography.Text>
    );
  }
  return <span style={{ whiteSpace: 'pre-wrap' }}>{reason}</span>;
}
