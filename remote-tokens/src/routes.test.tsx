import { describeRemoteContract } from '@portal/shared/testing';
import remote from './routes';

describeRemoteContract(remote);
