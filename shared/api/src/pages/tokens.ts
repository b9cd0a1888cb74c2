/** remote-tokens' pages: artifact-repository access tokens and other services' tokens (spec section 2). */
import { link, page, SIGNED_IN } from './page.js';

export const tokensPages = {
  artifactTokens: page('/tokens/artifactory', 'Artifactory Access Tokens', SIGNED_IN),
  serviceTokens: page('/tokens/services', 'Service Tokens', SIGNED_IN),
} as const;

export const tokensLinks = {
  artifactTokens: () => link(tokensPages.artifactTokens, {}),
  serviceTokens: () => link(tokensPages.serviceTokens, {}),
};
