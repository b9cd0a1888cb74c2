/** remote-tokens: artifact-repository access tokens and other services' tokens (architecture.md). */
import { pendingPage, type RemoteModule, route, SIGNED_IN } from '@portal/shared';

const remote: RemoteModule = {
  name: 'tokens',
  contract: '^1.0.0',
  routes: [
    route('tokens/artifactory', 'Artifactory Access Tokens', SIGNED_IN, pendingPage('Artifactory Access Tokens')),
    route('tokens/services', 'Service Tokens', SIGNED_IN, pendingPage('Service Tokens')),
  ],
};

export default remote;
