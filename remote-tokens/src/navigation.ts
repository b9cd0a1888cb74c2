/** remote-tokens' sidebar entries (spec section 2): the Tokens submenu, Artifactory only where the portal supports the artifact repository. */
import { pageEntry, tokensPages } from '@portal/api';

export const navigation = [
  pageEntry(tokensPages.artifactTokens, { section: 'main', order: 50, label: 'Artifactory', group: 'Tokens', when: 'service:artifacts' }),
  pageEntry(tokensPages.serviceTokens, { section: 'main', order: 51, label: 'Other Services', group: 'Tokens' }),
];
