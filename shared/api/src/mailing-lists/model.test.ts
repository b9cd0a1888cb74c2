import { eligibleGroups, listNameProblem, mailingListAddress } from './model.js';

describe('mailing list rules', () => {
  it('a role group reaches its role and the roles above it; any other group only itself', () => {
    expect(eligibleGroups('PORTAL', 'PORTAL-user')).toEqual(['PORTAL-admin', 'PORTAL-team', 'PORTAL-user']);
    expect(eligibleGroups('PORTAL', 'PORTAL-team')).toEqual(['PORTAL-admin', 'PORTAL-team']);
    expect(eligibleGroups('PORTAL', 'PORTAL-admin')).toEqual(['PORTAL-admin']);
    expect(eligibleGroups('PORTAL', 'PORTAL-release')).toEqual(['PORTAL-release']);
    expect(eligibleGroups('PORTAL', 'OTHER-user')).toEqual(['OTHER-user']);
  });

  it('the address is the lower-cased group id, a hyphen and the name at the domain; the name rule with its message', () => {
    expect(mailingListAddress('PORTAL', ' Dev.Team ', 'Example.test')).toBe('portal-dev.team@example.test');
    expect(listNameProblem('PORTAL', '', 'example.test')).toBe('Please enter a list name');
    // The message names the address the preview shows: the final one, lower-cased.
    expect(listNameProblem('WALK1', 'a b', 'Example.test')).toBe('walk1-a b@example.test must be a valid email');
    expect(listNameProblem('PORTAL', ' Dev Team ', 'example.test')).toBe(`${mailingListAddress('PORTAL', ' Dev Team ', 'example.test')} must be a valid email`);
    expect(listNameProblem('PORTAL', 'a'.repeat(60), 'example.test')).toMatch(/must be a valid email$/);
    expect(listNameProblem('PORTAL', 'dev_team-2.x', 'example.test')).toBeUndefined();
  });
});
