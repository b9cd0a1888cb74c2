import { Typography } from 'antd';
import type { ReactNode } from 'react';

/** A titled part of a page (its heading names the region for screen readers). */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} style={{ marginTop: 32 }}>
      <Typography.Title level={3} id={id}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}
