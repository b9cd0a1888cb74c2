import { Typography } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useConfiguration } from '../stores/configuration.js';

/** A page's heading; also sets the document title ("Title · Brand"). */
export function PageTitle({ children, documentTitle }: { children: ReactNode; documentTitle?: string }) {
  const { brand } = useConfiguration();
  const text = documentTitle ?? (typeof children === 'string' ? children : undefined);
  useEffect(() => {
    if (text) document.title = brand && brand !== 'undefined' ? `${text} · ${brand}` : text;
  }, [text, brand]);
  return (
    <Typography.Title level={2} style={{ marginTop: 0 }}>
      {children}
    </Typography.Title>
  );
}
