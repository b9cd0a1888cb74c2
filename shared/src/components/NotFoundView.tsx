import { links } from '@portal/api';
import { Typography } from 'antd';
import { Link } from 'react-router-dom';
import { ApiError, MESSAGES, PageTitle } from '@portal/shared';

/** Did the server answer 404 (an unknown request, account or group)? */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.code === 404);
}

/**
 * The not-found view (spec section 2, /not-found), shown in place of a page whose request,
 * account or group does not exist, without changing the URL (spec section 8).
 */
export function NotFoundView() {
  return (
    <>
      <PageTitle documentTitle="Not found">Not Found</PageTitle>
      <Typography.Paragraph>{MESSAGES.notFound}</Typography.Paragraph>
      <Link to={links.profile()}>Go to your profile</Link>
    </>
  );
}
