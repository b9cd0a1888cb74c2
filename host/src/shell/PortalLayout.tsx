import { useSessionStore } from '@portal/shared';
import { Button, Layout } from 'antd';
import { useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { FeedbackBanner } from './FeedbackBanner';
import { PreviewMarker } from './PreviewMarker';
import { SideNav } from './SideNav';
import { TopBar } from './TopBar';

const SIDEBAR_ID = 'portal-sections';

/** antd's `md` breakpoint as Layout.Sider tests it: below it, the screen is narrow. */
const NARROW_QUERY = 'screen and (max-width: 767.98px)';

/** Whether the screen is narrow now: the first render already lays out what the phone shows, not a wide layout first and then another. */
function narrowNow(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;
}

/**
 * The chrome: the top bar always; the sidebar on signed-in pages once someone is signed in; the
 * feedback banner and the page in the middle.
 *
 * On a narrow screen (below antd's md, 768 px) the sidebar is folded away and a Menu button in
 * the top bar opens it over the page (never on top of the page's title, as antd's own floating
 * trigger would be); choosing a link folds it again. A folded sidebar is hidden and inert: its
 * links are neither shown, tabbed to nor read out, nor rendered: a phone does not build the menu
 * (and fetch its sections' remotes) until it is opened (less work as a phone's page starts).
 */
export function PortalLayout({ sidebar: wanted, children }: { sidebar: boolean; children: ReactNode }) {
  const signedIn = useSessionStore((s) => s.status === 'signed-in');
  const sidebar = wanted && signedIn;
  const [narrow, setNarrow] = useState(narrowNow);
  // Opened on this path: going to another page folds it again.
  const [openedOn, setOpenedOn] = useState<string>();
  const { pathname } = useLocation();
  const open = openedOn === pathname;
  const folded = narrow && !open;
  const menu =
    sidebar && narrow ? (
      <Button type="primary" aria-expanded={open} aria-controls={SIDEBAR_ID} onClick={() => setOpenedOn(open ? undefined : pathname)}>
        {open ? 'Close menu' : 'Menu'}
      </Button>
    ) : undefined;
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <TopBar menu={menu} />
      <Layout style={{ position: 'relative' }}>
        {sidebar && (
          <Layout.Sider
            id={SIDEBAR_ID}
            width={280}
            theme="light"
            breakpoint="md"
            collapsedWidth={0}
            collapsed={folded}
            trigger={null}
            onBreakpoint={setNarrow}
            aria-label="Portal sections"
            style={narrow ? { position: 'absolute', insetBlock: 0, insetInlineStart: 0, zIndex: 10, boxShadow: open ? '0 8px 24px rgba(0,0,0,0.25)' : undefined } : undefined}
          >
            <div inert={folded} style={folded ? { visibility: 'hidden' } : undefined}>
              {!folded && <SideNav />}
            </div>
          </Layout.Sider>
        )}
        <Layout.Content id="main" tabIndex={-1} style={{ padding: 24, outline: 'none', minWidth: 0 }}>
          <FeedbackBanner />
          <PreviewMarker />
          {children}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
