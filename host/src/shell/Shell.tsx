import { links } from '@portal/api';
import { App as AntApp, ConfigProvider, theme as antTheme, type ThemeConfig } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { LoginPage } from '../pages/login/LoginPage';
import { LogoutPage } from '../pages/LogoutPage';
import { NotAuthorizedPage } from '../pages/NotAuthorizedPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RemoteArea } from './RemoteArea';
import { startShell } from './startup';
import { useIsDark } from './theme';

export function PortalRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Navigate to={links.login()} replace />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/logout" element={<LogoutPage />} />
      <Route path="/not-authorized" element={<NotAuthorizedPage />} />
      <Route path="/not-found" element={<NotFoundPage />} />
      {/* Every other path belongs to a remote (by the manifest's prefixes) or is not found. */}
      <Route path="*" element={<RemoteArea />} />
    </Routes>
  );
}

// antd's default blues fall below 4.5:1 (axe: color-contrast): on white, links and the primary
// colour take blue-7 (~6:1); on the dark background, link and selected text take blue-4 (~8:1)
// while buttons keep the darker primary under their white text. Menu group titles and secondary
// text (45% opacity by default: ~3.4:1 on the grey page) are darkened in both. On white, error
// red (a Deny button's text, form errors) takes red-7 (~5.9:1; the default red-5 is ~3.7:1);
// status tags' green and gold text take their 8th shade (~5.5:1 on the tag's tint); a table's
// empty text (drawn in the 25% 'disabled' grey) takes the secondary grey. On the dark
// background one red serves as text (Deny, form errors) and as a solid button's fill: it takes
// the light red-4 (~7:1 on the page) and a solid danger button writes dark text on it.
const LIGHT: ThemeConfig = {
  algorithm: antTheme.defaultAlgorithm,
  token: { colorPrimary: '#0958d9', colorLink: '#0958d9', colorError: '#cf1322', colorTextDescription: 'rgba(0, 0, 0, 0.65)' },
  components: {
    Menu: { groupTitleColor: 'rgba(0, 0, 0, 0.68)' },
    Tag: { colorSuccess: '#237804', colorWarning: '#ad6800' },
    Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.65)' },
  },
};
const DARK: ThemeConfig = {
  algorithm: antTheme.darkAlgorithm,
  token: { colorLink: '#69b1ff', colorLinkHover: '#91caff', colorError: '#ff7875', colorTextDescription: 'rgba(255, 255, 255, 0.65)' },
  components: {
    Menu: { groupTitleColor: 'rgba(255, 255, 255, 0.72)', itemSelectedColor: '#69b1ff' },
    Tabs: { itemSelectedColor: '#69b1ff', itemActiveColor: '#69b1ff', itemHoverColor: '#91caff', inkBarColor: '#69b1ff' },
    Table: { colorTextDisabled: 'rgba(255, 255, 255, 0.65)' },
    Button: { dangerColor: 'rgba(0, 0, 0, 0.88)' },
  },
};

function RequiredMark({ label, required }: { label: ReactNode; required: boolean }) {
  const { token } = antTheme.useToken();
  return (
    <>
      {label}
      {required && (
        <span aria-hidden="true" style={{ color: token.colorError, marginInlineStart: 4 }}>
          *
        </span>
      )}
    </>
  );
}

export default function Shell() {
  useEffect(startShell, []);
  const dark = useIsDark();
  useEffect(() => {
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [dark]);
  return (
    <ConfigProvider
      theme={dark ? DARK : LIGHT}
      // The required mark is drawn, not read: the input says aria-required instead, so a screen
      // reader hears "Website token, required" rather than "star Website token".
      form={{ requiredMark: (label, { required }) => <RequiredMark label={label} required={required} /> }}
    >
      <AntApp>
        <BrowserRouter>
          <PortalRoutes />
        </BrowserRouter>
      </AntApp>
    </ConfigProvider>
  );
}
