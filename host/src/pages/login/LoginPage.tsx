import { getLoginAgreement, type LoginAgreement, links, loginHelpUrl } from '@portal/api';
import { call, PageTitle, type Session, useConfiguration, useConfigurationStore, useSessionStore } from '@portal/shared';
import { Alert, Button, Card, Radio, Skeleton, Space, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useSessionCheck } from '../../shell/useSessionCheck';
import { HostPage } from '../HostPage';
import { destinationAfterSignIn, destinationForSession } from './afterSignIn';
import { openExternal } from './openExternal';
import { CacSignIn } from './CacSignIn';
import { lastAuthType, lastUserType, rememberAuthType, rememberUserType, type AuthType, type UserType } from './preferences';
import { TokenSignInForm } from './TokenSignInForm';

/**
 * /login, in two stages (spec section 2): the login agreement when configured, then "Please
 * Sign In" with New Users and Returning Users.
 */
type Destination = ReturnType<typeof destinationAfterSignIn>;

export function LoginPage() {
  const config = useConfiguration();
  const configReady = useConfigurationStore((s) => s.status === 'ready');
  const [agreed, setAgreed] = useState(false);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const redirect = params.get('redirect');
  const sessionStatus = useSessionStore((s) => s.status);

  const go = (next: Destination) => {
    if (next.kind === 'external') openExternal(next.href);
    else navigate(next.to, { replace: true });
  };

  // Already signed in: without a redirect the profile; with one, the subscriptions are checked
  // (spec section 2) before a platform service is opened (afterSignIn.ts).
  useSessionCheck(redirect, (state) => {
    if (state.status !== 'signed-in' || !state.session) return;
    if (redirect === null) {
      navigate(links.profile(), { replace: true });
      return;
    }
    destinationForSession(state.session, redirect, config).then(go, () => navigate(links.profile(), { replace: true }));
  });

  const onSignedIn = (session: Session) => {
    useSessionStore.getState().signedIn(session);
    go(destinationAfterSignIn(session, redirect, config));
  };

  if (!configReady || sessionStatus === 'signed-in') return <HostPage>{null}</HostPage>;

  if (config.show_login_agreement && !agreed) {
    return (
      <HostPage>
        <PageTitle>Login Agreement</PageTitle>
        <AgreementStage onAgree={() => setAgreed(true)} />
      </HostPage>
    );
  }

  return (
    <HostPage>
      <PageTitle>Please Sign In</PageTitle>
      <SignInTabs cacSupport={config.cac_support} helpUrl={loginHelpUrl(config)} onSignedIn={onSignedIn} />
    </HostPage>
  );
}

/** Shown when the agreement could not be loaded: nobody agrees to a text they were not shown. */
export const AGREEMENT_UNAVAILABLE = 'The login agreement could not be loaded.';

type AgreementState = { status: 'loading' } | { status: 'ready'; agreement: LoginAgreement } | { status: 'failed'; message: string };

/**
 * Stage one (spec section 2): the agreement itself (GET /login-agreement: the configured file or
 * the standard notice, never only its file name), as plain text with its line
 * breaks, then I Agree. Without the text there is no I Agree, only Retry.
 */
function AgreementStage({ onAgree }: { onAgree(): void }) {
  const [state, setState] = useState<AgreementState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    call(getLoginAgreement, {}, { signal: controller.signal }).then(
      (agreement) => setState({ status: 'ready', agreement }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  if (state.status === 'loading') return <Skeleton active aria-busy="true" />;
  if (state.status === 'failed') {
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        title={AGREEMENT_UNAVAILABLE}
        description={state.message}
        action={<Button onClick={() => setAttempt((n) => n + 1)}>Retry</Button>}
        style={{ maxWidth: 720 }}
      />
    );
  }
  return (
    <Card style={{ maxWidth: 720 }}>
      <section
        aria-label="Agreement text"
        tabIndex={0}
        style={{ whiteSpace: 'pre-wrap', maxHeight: '50vh', overflowY: 'auto', marginBottom: 16 }}
      >
        {state.agreement.text}
      </section>
      <Button type="primary" onClick={onAgree} autoFocus>
        I Agree
      </Button>
    </Card>
  );
}

function SignInTabs({ cacSupport, helpUrl, onSignedIn }: { cacSupport: boolean; helpUrl: string | undefined; onSignedIn(session: Session): void }) {
  const [userType, setUserType] = useState<UserType>(lastUserType);
  const [authType, setAuthType] = useState<AuthType>(() => lastAuthType(cacSupport));
  const effectiveAuth: AuthType = cacSupport ? authType : 'token';

  return (
    <Tabs
      activeKey={userType}
      onChange={(key) => {
        setUserType(key as UserType);
        rememberUserType(key as UserType);
      }}
      items={[
        {
          key: 'new',
          label: 'New Users',
          children: (
            <Space direction="vertical">
              <Link to={links.requestAccount()}>Request an account</Link>
              <Link to={links.checkAccountRequestStatus()}>Check account request status</Link>
            </Space>
          ),
        },
        {
          key: 'returning',
          label: 'Returning Users',
          children: (
            <Space direction="vertical" size="large" style={{ width: '100%' }}>
              {cacSupport && (
                <Radio.Group
                  aria-label="How do you sign in?"
                  value={effectiveAuth}
                  optionType="button"
                  onChange={(e) => {
                    setAuthType(e.target.value as AuthType);
                    rememberAuthType(e.target.value as AuthType);
                  }}
                  options={[
                    { value: 'cac', label: 'CAC Users' },
                    { value: 'token', label: 'Non-CAC Users' },
                  ]}
                />
              )}
              {effectiveAuth === 'cac' ? (
                <CacSignIn onSignedIn={onSignedIn} />
              ) : (
                <>
                  <TokenSignInForm cacSupport={cacSupport} onSignedIn={onSignedIn} />
                  <Space wrap split="·">
                    <Link to={links.resetWebsiteToken()}>Generate a website token</Link>
                    <Link to={links.requestUnlock()}>Request an unlock</Link>
                    {cacSupport && <Link to={links.registerCac()}>Register your CAC</Link>}
                    {helpUrl !== undefined && <a href={helpUrl}>Login help</a>}
                  </Space>
                </>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
