import { links } from '@portal/api';
import { App as AntApp, ConfigProvider, theme as antTheme } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { LoginPage } from '../pages/login/LoginPage';
import { LogoutPage } from '../pages/LogoutPage';
import { NotAuthorizedPage } from '../pages/NotAuthorizedPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { MANAGE_REMOTES_PATH, ManageRemotesRoute } from '../pages/remotes/ManageRemotesRoute';
import { RemoteArea } from './RemoteArea';
import { startShell } from './startup';
import { useIsDark } from './theme';
import { DARK, LIGHT } from './themes';

export function PortalRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Navigate to={links.login()} replace />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/logout" element={<LogoutPage />} />
      <Route path="/not-authorized" element={<NotAuthorizedPage />} />
      <Route path="/not-found" element={<NotFoundPage />} />
      <Route path={MANAGE_REMOTES_PATH} element={<ManageRemotesRoute />} />
      {/* Every other path belongs to a remote (by the manifest's prefixes) or is not found. */}
      <Route path="*" element={<RemoteArea />} />
    </Routes>
  );
}

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
  // Started as the shell first renders, not once it has committed: the session check and the
  // environment are on their way while the chrome renders (once: startShell guards itself).
  startShell();
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
