import { brandName, links } from '@portal/api';
import { useConfiguration, useSessionStore } from '@portal/shared';
import { Layout, theme } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ThemeSwitch } from './ThemeSwitch';

/** The top bar: the brand (to the wiki), the light/dark switch, who is signed in and Logout; `menu`, the narrow screen's sidebar button, before the brand. */
export function TopBar({ menu }: { menu?: ReactNode }) {
  const config = useConfiguration();
  const { wiki_url } = config;
  const session = useSessionStore((s) => s.session);
  const { token } = theme.useToken();
  const title = brandName(config);
  const linkStyle = { color: '#fff', fontWeight: 600 };
  return (
    <Layout.Header
      role="banner"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', paddingInline: token.paddingLG }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 16 }}>
        {menu}
        {/^https?:\/\//.test(wiki_url) ? (
          <a href={wiki_url} style={{ ...linkStyle, fontSize: 18 }}>
            {title}
          </a>
        ) : (
          <Link to="/" style={{ ...linkStyle, fontSize: 18 }}>
            {title}
          </Link>
        )}
      </div>
      <div style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
        <ThemeSwitch />
        <nav aria-label="Account" style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
          {session ? (
            <>
              {/* Not on a phone: with the Menu button, the brand and the theme switch there is no room (index.html). */}
              <span className="topbar-user" style={{ color: 'rgba(255,255,255,0.85)' }}>
                {session.username}
              </span>
              <Link to={links.logout()} style={linkStyle}>
                Logout
              </Link>
            </>
          ) : (
            <Link to={links.login()} style={linkStyle}>
              Login
            </Link>
          )}
        </nav>
      </div>
    </Layout.Header>
  );
}
