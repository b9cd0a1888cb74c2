import { App as AntApp, ConfigProvider, theme as antTheme } from 'antd';
import { useEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { LoginPage } from '../pages/LoginPage';
import { LogoutPage } from '../pages/LogoutPage';
import { NotAuthorizedPage } from '../pages/NotAuthorizedPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RemoteArea } from './RemoteArea';
import { startShell } from './startup';
import { useIsDark } from './theme';

export function PortalRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Navigate to="/login" replace />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/logout" element={<LogoutPage />} />
      <Route path="/not-authorized" element={<NotAuthorizedPage />} />
      <Route path="/not-found" element={<NotFoundPage />} />
      {/* Every other path belongs to a remote (by the manifest's prefixes) or is not found. */}
      <Route path="*" element={<RemoteArea />} />
    </Routes>
  );
}

export default function Shell() {
  useEffect(startShell, []);
  const dark = useIsDark();
  useEffect(() => {
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [dark]);
  return (
    <ConfigProvider theme={{ algorithm: dark ? antTheme.darkAlgorithm : antTheme.defaultAlgorithm }}>
      <AntApp>
        <BrowserRouter>
          <PortalRoutes />
        </BrowserRouter>
      </AntApp>
    </ConfigProvider>
  );
}
