import { MESSAGES, PageTitle } from '@portal/shared';
import { Link } from 'react-router-dom';
import { HostPage } from './HostPage';

export function LogoutPage() {
  return (
    <HostPage>
      <PageTitle>{MESSAGES.loggedOut}</PageTitle>
      <Link to="/login">Back to login</Link>
    </HostPage>
  );
}
