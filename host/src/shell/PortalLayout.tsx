import { Layout } from 'antd';
import type { ReactNode } from 'react';
import { SideNav } from './SideNav';
import { TopBar } from './TopBar';

/** The chrome: the top bar always, the sidebar on signed-in pages, the page in the middle. */
export function PortalLayout({ sidebar, children }: { sidebar: boolean; children: ReactNode }) {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <TopBar />
      <Layout>
        {sidebar && (
          <Layout.Sider width={232} theme="light" breakpoint="md" collapsedWidth={0} aria-label="Portal sections">
            <SideNav />
          </Layout.Sider>
        )}
        <Layout.Content id="main" tabIndex={-1} style={{ padding: 24, outline: 'none' }}>
          {children}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
