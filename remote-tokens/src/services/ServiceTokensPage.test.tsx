import { configure, fakeServer, renderPage, signIn } from '@portal/shared/testing';
import { fireEvent, screen } from '@testing-library/react';
import { NO_SERVICE_TOKENS, ServiceTokensPage } from './ServiceTokensPage';

const PATH = '/tokens/services';
const open = () => renderPage(<ServiceTokensPage />, { path: PATH, entries: [PATH] });

beforeEach(() => {
  signIn('user', []);
  fakeServer({});
});

describe('/tokens/services', () => {
  it('links to each supported service with an address, and fills the project key into the source host’s project-token address', () => {
    configure({
      cac_support: true,
      supported_services: 'bitbucket,confluence,jira',
      bitbucket_url: 'https://code.example.test/',
      wiki_url: 'https://wiki.example.test',
      jira_url: 'https://jira.example.test',
    });
    open();
    expect(screen.getByRole('link', { name: 'Your Bitbucket tokens' })).toHaveAttribute('href', 'https://code.example.test/plugins/servlet/access-tokens/users/manage');
    expect(screen.getByRole('link', { name: 'Your Confluence (wiki) tokens' })).toHaveAttribute(
      'href',
      'https://wiki.example.test/plugins/personalaccesstokens/usertokens.action',
    );
    expect(screen.getByRole('link', { name: 'Your Jira (issue tracker) tokens' })).toHaveAttribute(
      'href',
      'https://jira.example.test/secure/ViewProfile.jspa?selectedTab=com.atlassian.pats.pats-plugin:jira-user-personal-access-tokens',
    );
    expect(screen.getByText('https://code.example.test/plugins/servlet/access-tokens/projects/PROJECT_KEY/manage')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Project key'), { target: { value: 'web/../x' } });
    expect(screen.getByRole('link', { name: 'Open the tokens of project WEBX' })).toHaveAttribute(
      'href',
      'https://code.example.test/plugins/servlet/access-tokens/projects/WEBX/manage',
    );
  });

  it("takes a service's address from service_origins when its own is not set (the demo's configuration): all three, the project path with PROJECT_KEY", () => {
    configure({
      cac_support: true,
      supported_services: 'artifacts,bitbucket,confluence,jenkins,jira,jsm,sonarqube',
      wiki_url: 'https://wiki.example.test/',
      bitbucket_url: 'undefined',
      jira_url: 'undefined',
      service_origins: 'bitbucket=https://code.example.test,confluence=https://wiki.example.test,jira=https://jira.example.test,jenkins=https://ci.example.test',
    });
    open();
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Bitbucket', 'Confluence (wiki)', 'Jira (issue tracker)']);
    expect(screen.getByRole('link', { name: 'Your Bitbucket tokens' })).toHaveAttribute('href', 'https://code.example.test/plugins/servlet/access-tokens/users/manage');
    expect(screen.getByRole('link', { name: 'Your Jira (issue tracker) tokens' })).toHaveAttribute(
      'href',
      'https://jira.example.test/secure/ViewProfile.jspa?selectedTab=com.atlassian.pats.pats-plugin:jira-user-personal-access-tokens',
    );
    expect(screen.getByText('https://code.example.test/plugins/servlet/access-tokens/projects/PROJECT_KEY/manage')).toBeInTheDocument();
  });

  it('leaves out a service that is not supported or has no address, and says when none is left', () => {
    configure({ cac_support: true, supported_services: 'jira,confluence', bitbucket_url: 'https://code.example.test', jira_url: 'undefined', wiki_url: 'https://wiki.example.test' });
    const first = open();
    expect(screen.queryByRole('link', { name: /Bitbucket/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Jira/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your Confluence (wiki) tokens' })).toBeInTheDocument();
    first.unmount();
    configure({ cac_support: true, supported_services: 'artifacts' });
    open();
    expect(screen.getByText(NO_SERVICE_TOKENS)).toBeInTheDocument();
  });

  it('goes to /profile without smart-card support', async () => {
    configure({ cac_support: false, supported_services: 'jira', jira_url: 'https://jira.example.test' });
    open();
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/profile$/);
  });
});
