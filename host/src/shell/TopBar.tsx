import { useConfiguration } from '@portal/shared';
import { Layout, theme } from 'antd';
import { Link } from 'react-router-dom';

export function TopBar() {
  const { brand, wiki_url } = useConfiguration();
  const { token } = theme.useToken();
  const title = brand && brand !== 'undefined' ? brand : 'Portal';
  const linkStyle = { color: '#fff', fontWeight: 600 };
  return (
    <Layout.Header
      role="banner"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', paddingInline: token.paddingLG }}
    >
      {wiki_url && wiki_url !== 'undefined' ? (
        <a href={wiki_url} style={{ ...linkStyle, fontSize: 18 }}>
          {title}
        </a>
      ) : (
        <Link to="/" style={{ ...linkStyle, fontSize: 18 }}>
          {title}
        </Link>
      )}
      <nav aria-label="Account">
        <Link to="/login" style={linkStyle}>
          Login
        </Link>
      </nav>
    </Layout.Header>
  );
}
