import { links } from '@portal/api';
import { PageTitle, safeRedirect, type Session, useConfiguration, useConfigurationStore, useSessionStore } from '@portal/shared';
import { Button, Card, Radio, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useSessionCheck } from '../../shell/useSessionCheck';
import { HostPage } from '../HostPage';
import { destinationAfterSignIn } from './afterSignIn';
import { CacSignIn } from './CacSignIn';
import { lastAuthType, lastUserType, rememberAuthType, rememberUserType, type AuthType, type UserType } from './preferences';
import { TokenSignInForm } from './TokenSignInForm';

/**
 * /login, in two stages (spec section 2): the login agreement when configured, then "Please
 * Sign In" with New Users and Returning Users.
 */
export function LoginPage() {
  const config = useConfiguration();
  const configReady = useConfigurationStore((s) => s.status === 'ready');
  const [agreed, setAgreed] = useState(false);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const redirect = params.get('redirect');
  const sessionStatus = useSessionStore((s) => s.status);

  // Already signed in: on to the redirect (spec section 2), or the profile.
  useSessionCheck(redirect, (state) => {
    if (state.status === 'signed-in') navigate(safeRedirect(redirect) ?? links.profile(), { replace: true });
  });

  const onSignedIn = (session: Session) => {
    useSessionStore.getState().signedIn(session);
    const next = destinationAfterSignIn(session, redirect, config.wiki_url);
    if (next.kind === 'route') navigate(next.to, { replace: true });
    else window.location.assign(next.href);
  };

  if (!configReady || sessionStatus === 'signed-in') return <HostPage>{null}</HostPage>;

  if (config.show_login_agreement && !agreed) {
    return (
      <HostPage>
        <PageTitle>Login Agreement</PageTitle>
        <Card style={{ maxWidth: 720 }}>
          <Typography.Paragraph>
            You are accessing a system provided for authorized use only. By signing in you agree to the terms of use of
            this system{config.login_agreement_filename !== 'undefined' ? ` (${config.login_agreement_filename})` : ''}.
          </Typography.Paragraph>
          <Button type="primary" onClick={() => setAgreed(true)} autoFocus>
            I Agree
          </Button>
        </Card>
      </HostPage>
    );
  }

  return (
    <HostPage>
      <PageTitle>Please Sign In</PageTitle>
      <SignInTabs cacSupport={config.cac_support} wikiUrl={config.wiki_url} onSignedIn={onSignedIn} />
    </HostPage>
  );
}

function SignInTabs({ cacSupport, wikiUrl, onSignedIn }: { cacSupport: boolean; wikiUrl: string; onSignedIn(session: Session): void }) {
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
                    {/^https?:\/\//.test(wikiUrl) && <a href={wikiUrl}>Login help</a>}
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
