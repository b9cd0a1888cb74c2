/** A titled part of a page (Account Administration, Provisioning): a section named by its heading. */
import { Typography } from 'antd';
import { useId, type ReactNode } from 'react';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} style={{ marginTop: 24 }}>
      <Typography.Title level={3} id={headingId}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}
