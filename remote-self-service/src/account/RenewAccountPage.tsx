/**
 * /renew-account, 'Renew Your Account' (spec sections 2, 4 and 5): the yearly certification.
 * The box must be ticked; POST /requests/renewal { username, reason: 'Certifying' }; then the
 * session is asked for again (it now carries the account's usual permissions) and the user goes
 * to /profile.
 */
import { links, RULE_MESSAGES } from '@portal/api';
import { PageTitle, useConfiguration, useSessionStore } from '@portal/shared';
import { CheckboxField, FormShell, mustBeChecked, submissionErrors } from '@portal/shared/forms';
import { requestRenewal } from '../api/account';
import { Typography } from 'antd';
import { useNavigate } from 'react-router-dom';

/** The wiki page on website user roles and responsibilities, below the configured wiki_url. */
export const ROLES_PAGE_PATH = 'display/WEB/Website+User+Roles+and+Responsibilities';
export const ROLES_PAGE_TITLE = 'Website User Roles and Responsibilities';

/** A page of the configured wiki, or undefined when no wiki is configured. */
export function wikiPage(wikiUrl: string, path: string): string | undefined {
  const base = wikiUrl.trim();
  if (base === '' || base === 'undefined') return undefined;
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

interface Values {
  certify?: boolean;
}

export function RenewAccountPage() {
  const navigate = useNavigate();
  const { wiki_url } = useConfiguration();
  const username = useSessionStore((s) => s.session?.username);
  const rolesPage = wikiPage(wiki_url, ROLES_PAGE_PATH);

  const submit = async () => {
    try {
      await requestRenewal(username ?? '');
      // The session changes with the renewal: ask for it again before the guard looks.
      await useSessionStore.getState().resolve();
      navigate(links.profile());
      return undefined;
    } catch (error) {
      return submissionErrors(error);
    }
  };

  return (
    <>
      <PageTitle>Renew Your Account</PageTitle>
      <Typography.Paragraph>
        Every user certifies once a year that they know the requirements for using this website. Please read{' '}
        {rolesPage ? (
          <Typography.Link href={rolesPage} target="_blank" rel="noopener noreferrer">
            {ROLES_PAGE_TITLE} (opens in a new tab)
          </Typography.Link>
        ) : (
          <Typography.Text strong>{ROLES_PAGE_TITLE}</Typography.Text>
        )}{' '}
        on the wiki, then certify below to continue.
      </Typography.Paragraph>
      <FormShell<Values> onSubmit={submit} aria-label="Renew your account" submitLabel="Continue to Profile" style={{ maxWidth: 560 }}>
        <CheckboxField name="certify" label="I have read and understand the requirements" validate={mustBeChecked(RULE_MESSAGES.certifyRequirements)} />
      </FormShell>
    </>
  );
}
