import { useSessionStore } from '@portal/shared';
import { describeRemoteContract } from '@portal/shared/testing';
import remote from './routes';

// The signed-in pages read who is signed in (the host's guard has resolved it before they show).
beforeEach(() => {
  useSessionStore.setState({ status: 'signed-in', session: { username: 'jane.doe', permissions: [] } });
});

describeRemoteContract(remote, { headings: { profile: 'User Profile: jane.doe' } });
