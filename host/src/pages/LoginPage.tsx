import { PageTitle } from '@portal/shared';
import { Alert } from 'antd';
import { HostPage } from './HostPage';

/**
 * The frame of /login. Sign-in itself (the agreement, the tabs, CAC and website-token sign-in)
 * is issue #3; until then this page says so rather than pretending.
 */
export function LoginPage() {
  return (
    <HostPage>
      <PageTitle>Please Sign In</PageTitle>
      <Alert type="info" showIcon title="Sign-in is not available in this build yet." />
    </HostPage>
  );
}
