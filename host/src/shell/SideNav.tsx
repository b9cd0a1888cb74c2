import { isServiceSupported, remoteForPath, useConfiguration } from '@portal/shared';
import { Menu, type MenuProps } from 'antd';
import { Link, useLocation } from 'react-router-dom';
import { remoteLoader, useEnvironmentStore } from './startup';

/** The sidebar links of spec section 2 (Chrome). Hovering a link starts loading its remote. */
export function SideNav() {
  const config = useConfiguration();
  const { pathname } = useLocation();
  const remotes = useEnvironmentStore((s) => s.environment?.remotes);

  const preload = (to: string) => {
    const remote = remotes && remoteForPath(remotes, to);
    if (remote) remoteLoader.preload(remote);
  };
  const link = (to: string, label: string) => (
    <Link to={to} onMouseEnter={() => preload(to)} onFocus={() => preload(to)}>
      {label}
    </Link>
  );

  const tokens: NonNullable<MenuProps['items']>[number] = isServiceSupported(config, 'artifacts')
    ? {
        key: 'tokens',
        label: 'Tokens',
        children: [
          { key: '/tokens/artifactory', label: link('/tokens/artifactory', 'Artifactory') },
          { key: '/tokens/services', label: link('/tokens/services', 'Other Services') },
        ],
      }
    : { key: '/tokens/services', label: link('/tokens/services', 'Tokens') };

  const items: MenuProps['items'] = [
    { key: '/profile', label: link('/profile', 'My Profile') },
    { key: '/subscriptions', label: link('/subscriptions', 'Subscriptions') },
    { key: '/groups', label: link('/groups', 'Groups') },
    { key: '/mailing-lists', label: link('/mailing-lists', 'Mailing Lists') },
    tokens,
  ];
  const selected = ['/profile', '/subscriptions', '/groups', '/mailing-lists', '/tokens/artifactory', '/tokens/services'].filter(
    (p) => pathname === p || pathname.startsWith(p + '/'),
  );
  return (
    <nav aria-label="Main">
      <Menu mode="inline" selectedKeys={selected} defaultOpenKeys={['tokens']} items={items} style={{ height: '100%' }} />
    </nav>
  );
}
