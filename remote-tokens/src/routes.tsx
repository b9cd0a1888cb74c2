/** remote-tokens: artifact-repository access tokens and other services' tokens (docs/architecture.md, "The remotes"; server/docs/tokens.md). */
import { type RemoteModule, route, SIGNED_IN } from '@portal/shared';
import { ArtifactoryTokensPage } from './artifactory/ArtifactoryTokensPage';
import { ServiceTokensPage } from './services/ServiceTokensPage';

const remote: RemoteModule = {
  name: 'tokens',
  contract: '^2.0.0',
  routes: [
    route('tokens/artifactory', 'Artifactory Access Tokens', SIGNED_IN, ArtifactoryTokensPage),
    route('tokens/services', 'Service Tokens', SIGNED_IN, ServiceTokensPage),
  ],
};

export default remote;
