import { links } from '@portal/api';
import { App as AntApp, ConfigProvider, theme as antTheme } from 'antd';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { loadLoginPage } from '../loginChunk';
import { HostPage } from '../pages/HostPage';
import { LogoutPage } from '../pages/LogoutPage';
import { NotAuthorizedPage } from '../pages/NotAuthorizedPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { MANAGE_REMOTES_PATH, ManageRemotesRoute } from '../pages/remotes/ManageRemotesRoute';
import { Loading } from './Loading';
import { RemoteArea } from './RemoteArea';
import { RemoteErrorBoundary } from './RemoteErrorBoundary';
import { startShell } from './startup';
import { useIsDark, useThemeChoice, writeThemeCookie } from './theme';
import { DARK, LIGHT } from './themes';

export function PortalRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Navigate to={links.login()} replace />} />
      <Route path={links.login()} element={<LoginRoute />} />
      <Route path={links.logout()} element={<LogoutPage />} />
      <Route path={links.notAuthorized()} element={<NotAuthorizedPage />} />
      <Route path={links.notFound()} element={<NotFoundPage />} />
      <Route path={MANAGE_REMOTES_PATH} element={<ManageRemotesRoute />} />
      {/* Every other path belongs to a remote (by the manifest's prefixes) or is not found. */}
      <Route path="*" element={<RemoteArea />} />
    </Routes>
  );
}

function loginAttempt(attempt = 0) {
  return { attempt, LoginPage: lazy(() => loadLoginPage().then((module) => ({ default: module.LoginPage }))) };
}

/**
 * /login: the sign-in page, loaded as a chunk of its own (../loginChunk.ts). If it cannot be
 * loaded, the chrome stays and says so, with a Retry, as for a remote.
 */
function LoginRoute() {
  // A new lazy component per attempt: React keeps a failed one failed.
  const [{ attempt, LoginPage }, setAttempt] = useState(loginAttempt);
  const retry = async () => {
    await loadLoginPage();
    setAttempt(loginAttempt(attempt + 1));
  };
  return (
    <RemoteErrorBoundary key={attempt} remote="sign-in" onRetry={retry} wrap={(panel) => <HostPage>{panel}</HostPage>}>
      <Suspense
        fallback={
          <HostPage>
            <Loading />
          </HostPage>
        }
      >
        <LoginPage />
      </Suspense>
    </RemoteErrorBoundary>
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
  const choice = useThemeChoice();
  useEffect(() => {
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    // index.html's own colours (the page behind the chrome) follow the theme shown.
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);
  useEffect(() => {
    // The cookie the server paints the next first frame with, kept in step with what this browser remembers.
    if (choice) writeThemeCookie(choice);
  }, [choice]);
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
