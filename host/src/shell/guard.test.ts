import type { Session } from '@portal/shared';
import { guardDecision } from './guard';

const here = { pathname: '/groups', search: '?x=1' };
const signedIn = (...permissions: Session['permissions']) => ({ status: 'signed-in' as const, session: { username: 'jane', permissions } });

describe('guardDecision', () => {
  it('lets anyone open a public route', () => {
    expect(guardDecision({ status: 'anonymous' }, { kind: 'public' }, here)).toEqual({ kind: 'allow' });
  });

  it('sends a visitor without a session to /login with the redirect', () => {
    expect(guardDecision({ status: 'anonymous' }, { kind: 'session' }, here)).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fgroups%3Fx%3D1',
    });
  });

  it('sends an error to /not-authorized with the redirect', () => {
    expect(guardDecision({ status: 'error' }, { kind: 'session' }, here)).toEqual({
      kind: 'redirect',
      to: '/not-authorized?redirect=%2Fgroups%3Fx%3D1',
    });
  });

  it('forces /renew-account on a session holding the renew-account permission', () => {
    expect(guardDecision(signedIn('RENEW_ACCOUNT'), { kind: 'session' }, here)).toEqual({ kind: 'redirect', to: '/renew-account' });
    expect(
      guardDecision(signedIn('RENEW_ACCOUNT'), { kind: 'permission', permission: 'RENEW_ACCOUNT' }, { pathname: '/renew-account', search: '' }),
    ).toEqual({ kind: 'allow' });
  });

  it('sends a user lacking the route permission to /profile', () => {
    expect(guardDecision(signedIn('VIEW_ACCOUNT'), { kind: 'permission', permission: 'SEARCH_ACCOUNTS' }, here)).toEqual({
      kind: 'redirect',
      to: '/profile',
    });
  });

  it('lets a user holding the permission in', () => {
    expect(guardDecision(signedIn('SEARCH_ACCOUNTS'), { kind: 'permission', permission: 'SEARCH_ACCOUNTS' }, here)).toEqual({ kind: 'allow' });
    expect(guardDecision(signedIn(), { kind: 'session' }, here)).toEqual({ kind: 'allow' });
  });
});
