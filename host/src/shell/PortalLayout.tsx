import { useSessionStore } from '@portal/shared';
import { Layout } from 'antd';
import type { ReactNode } from 'react';
import { FeedbackBanner } from './FeedbackBanner';
import { SideNav } from './SideNav';
import { TopBar } from './TopBar';

/**
 * The chrome: the top bar always; the sidebar on signed-in pages once someone is signed in; the
 * feedback banner and the page in the middle.
 */
export function PortalLayout({ sidebar: wanted, children }: { sidebar: boolean; children: ReactNode }) {
  const signedIn = useSessionStore((s) => s.status === 'signed-in');
  const sidebar = wanted && signedIn;
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <TopBar />
      <Layout>
        {sidebar && (
          <Layout.Sider width={280} theme="light" breakpoint="md" collapsedWidth={0} aria-label="Portal sections">
            <SideNav />
          </Layout.Sider>
        )}
        <Layout.Content id="main" tabIndex={-1} style={{ padding: 24, outline: 'none' }}>
          <FeedbackBanner />
          {children}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
