import { Alert } from 'antd';
import type { ComponentType } from 'react';
import { PageTitle } from './PageTitle.js';

/**
 * A route whose screen is not built yet. It proves the wiring (the route, its permission, the
 * remote that owns it) and says plainly that the screen itself is still to come.
 */
export function pendingPage(title: string): ComponentType {
  function PendingPage() {
    return (
      <>
        <PageTitle>{title}</PageTitle>
        <Alert type="info" showIcon title="This screen is not built yet." />
      </>
    );
  }
  PendingPage.displayName = `PendingPage(${title})`;
  return PendingPage;
}
