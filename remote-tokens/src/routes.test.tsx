import { configure, describeRemoteContract, fakeServer } from '@portal/shared/testing';
import remote from './routes';

beforeEach(() => {
  configure({ supported_services: 'artifacts', cac_support: true });
  fakeServer({ 'GET /tokens': { body: { tokens: [] } } });
});

describeRemoteContract(remote);
