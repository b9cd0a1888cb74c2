/** remote-tokens: artifact-repository access tokens and other services' tokens (docs/architecture.md, "The remotes"; server/docs/tokens.md). */
import { pageRoute, tokensPages as pages } from '@portal/api';
import type { RemoteModule } from '@portal/shared';
import { ArtifactoryTokensPage } from './artifactory/ArtifactoryTokensPage';
import { ServiceTokensPage } from './services/ServiceTokensPage';

const remote: RemoteModule = {
  name: 'tokens',
  contract: '^2.0.0',
  routes: [
    pageRoute(pages.artifactTokens, ArtifactoryTokensPage),
    pageRoute(pages.serviceTokens, ServiceTokensPage),
  ],
};

export default remote;
