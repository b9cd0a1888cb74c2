/**
 * /tokens/services (spec section 2): where a user makes a user-scoped token on each other
 * service that issues its own, each only when the service is supported and its address is known:
 * bitbucket_url, wiki_url or jira_url, else the service's origin in service_origins (the address
 * a sign-in may send the user back to). The paths are those of the Atlassian Data Center products
 * the platform runs (server/docs/tokens.md); the source host's project tokens have a PROJECT_KEY
 * placeholder.
 */
import { isServiceSupported, serviceOrigins, type PortalConfiguration, type Service } from '../config.js';

export interface ServiceTokenLink {
  readonly service: 'bitbucket' | 'confluence' | 'jira';
  readonly name: string;
  /** The user's own tokens. */
  readonly userTokens: string;
  /** The source host only: a project's tokens, with PROJECT_KEY to replace. */
  readonly projectTokens?: string;
}

/** The placeholder the source host's project-token address carries (spec section 2). */
export const PROJECT_KEY = 'PROJECT_KEY';

const base = (url: string): string | undefined => (/^https?:\/\//.test(url) ? url.replace(/\/+$/, '') : undefined);

type LinkConfiguration = Pick<PortalConfiguration, 'supported_services' | 'bitbucket_url' | 'wiki_url' | 'jira_url' | 'service_origins'>;

export function serviceTokenLinks(config: LinkConfiguration): ServiceTokenLink[] {
  const links: ServiceTokenLink[] = [];
  const origins = serviceOrigins(config);
  /** The configured address, else the service's origin. */
  const address = (url: string, service: Service) => base(url) ?? origins.find((o) => o.service === service)?.origin;
  const bitbucket = address(config.bitbucket_url, 'bitbucket');
  if (isServiceSupported(config, 'bitbucket') && bitbucket) {
    links.push({
      service: 'bitbucket',
      name: 'Bitbucket',
      userTokens: `${bitbucket}/plugins/servlet/access-tokens/users/manage`,
      projectTokens: `${bitbucket}/plugins/servlet/access-tokens/projects/${PROJECT_KEY}/manage`,
    });
  }
  const wiki = address(config.wiki_url, 'confluence');
  if (isServiceSupported(config, 'confluence') && wiki) {
    links.push({ service: 'confluence', name: 'Confluence (wiki)', userTokens: `${wiki}/plugins/personalaccesstokens/usertokens.action` });
  }
  const jira = address(config.jira_url, 'jira');
  if (isServiceSupported(config, 'jira') && jira) {
    links.push({
      service: 'jira',
      name: 'Jira (issue tracker)',
      userTokens: `${jira}/secure/ViewProfile.jspa?selectedTab=com.atlassian.pats.pats-plugin:jira-user-personal-access-tokens`,
    });
  }
  return links;
}
