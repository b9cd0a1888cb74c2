import { Spin } from 'antd';

/** A page's content on its way: announced to screen readers, shown as a spinner. */
export function Loading() {
  return (
    <div role="status" aria-live="polite" style={{ padding: 48, textAlign: 'center' }}>
      <Spin />
      <div style={{ marginTop: 12 }}>Loading…</div>
    </div>
  );
}
