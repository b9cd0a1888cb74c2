import { links } from '@portal/api';
import { MESSAGES, PageTitle } from '@portal/shared';
import { Typography } from 'antd';
import { Link, useSearchParams } from 'react-router-dom';
import { HostPage } from './HostPage';

export function NotAuthorizedPage() {
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const to = redirect ? links.login(redirect) : links.login();
  return (
    <HostPage>
      <PageTitle documentTitle="Not authorized">Not Authorized</PageTitle>
      <Typography.Paragraph>{MESSAGES.notAuthorized}</Typography.Paragraph>
      <Link to={to}>Sign in</Link>
    </HostPage>
  );
}
