/**
 * One held message (spec sections 3, 4 and 9): its sender, subject, date, size in KB and why it
 * is held, its text shown as plain text (never as markup), and the moderator's action (defer by
 * default). A text taller than HELD_COLLAPSE_HEIGHT starts collapsed with a toggle to expand it;
 * the sender, the reason and the action stay in view.
 */
import { HELD_ACTIONS, HELD_COLLAPSE_HEIGHT, type HeldAction, type HeldMessage } from '@portal/api';
import { formatDateTime } from '@portal/shared/components';
import { Button, Card, Descriptions, Radio, theme } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { HELD_ACTION_LABELS, LIST_TEXT } from '../messages';

/** Does the element's content stand taller than the collapse height? Measured again when its width changes. */
function useTallerThan(height: number, text: string) {
  const ref = useRef<HTMLDivElement>(null);
  const [taller, setTaller] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () => setTaller(element.scrollHeight > height);
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [height, text]);
  return { ref, taller };
}

export function HeldMessageCard({
  message,
  action,
  disabled,
  onAction,
}: {
  message: HeldMessage;
  action: HeldAction;
  disabled: boolean;
  onAction: (action: HeldAction) => void;
}) {
  const { token } = theme.useToken();
  const { ref, taller } = useTallerThan(HELD_COLLAPSE_HEIGHT, message.msg);
  const [expanded, setExpanded] = useState(false);
  const collapsed = taller && !expanded;
  const id = `held-${message.request_id}`;
  const subject = message.subject.trim() === '' ? '(no subject)' : message.subject;

  return (
    <Card
      size="small"
      title={<span id={`${id}-subject`}>{subject}</span>}
      // A card's title stays on one line (cut with an ellipsis) by default: a long subject wraps
      // instead, so that it is read whole and never widens the page.
      styles={{ title: { whiteSpace: 'normal', overflowWrap: 'anywhere', paddingBlock: token.paddingXS } }}
      role="article"
      aria-labelledby={`${id}-subject`}
    >
      <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="From">{message.sender}</Descriptions.Item>
        <Descriptions.Item label="Held since">{formatDateTime(message.hold_date)}</Descriptions.Item>
        <Descriptions.Item label="Size">{`${message.original_size} KB`}</Descriptions.Item>
        <Descriptions.Item label="Reason">{message.reason}</Descriptions.Item>
      </Descriptions>
      <div
        ref={ref}
        id={`${id}-text`}
        data-collapsed={collapsed ? 'true' : 'false'}
        style={{
          maxHeight: collapsed ? HELD_COLLAPSE_HEIGHT : undefined,
          overflow: collapsed ? 'hidden' : undefined,
          background: token.colorFillQuaternary,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadius,
          padding: token.paddingXS,
        }}
      >
        {/* Plain text: React escapes it; nothing in a message is ever read as markup. */}
        <pre style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: 0, fontFamily: token.fontFamilyCode, fontSize: token.fontSizeSM }}>
          {message.msg}
        </pre>
      </div>
      {taller && (
        <Button type="link" size="small" style={{ paddingInline: 0 }} aria-expanded={expanded} aria-controls={`${id}-text`} onClick={() => setExpanded((e) => !e)}>
          {expanded ? LIST_TEXT.collapse : LIST_TEXT.expand}
        </Button>
      )}
      <div style={{ marginTop: 12 }}>
        <Radio.Group
          name={`${id}-action`}
          aria-label={`Action for ${subject} from ${message.sender}`}
          value={action}
          disabled={disabled}
          onChange={(event) => onAction(event.target.value as HeldAction)}
          options={HELD_ACTIONS.map((a) => ({ value: a, label: HELD_ACTION_LABELS[a] }))}
        />
      </div>
    </Card>
  );
}
