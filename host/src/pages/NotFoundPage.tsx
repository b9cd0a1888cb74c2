import { links } from '@portal/api';
import { MESSAGES, PageTitle } from '@portal/shared';
import { Typography } from 'antd';
import { Link } from 'react-router-dom';
import { HostPage } from './HostPage';

export function NotFoundPage() {
  return (
    <HostPage>
      <PageTitle documentTitle="Not found">Not Found</PageTitle>
      <Typography.Paragraph>{MESSAGES.notFound}</Typography.Paragraph>
      <Link to={links.profile()}>Go to your profile</Link>
    </HostPage>
  );
}
