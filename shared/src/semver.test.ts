import { isValidRange, satisfies } from './semver';

describe('satisfies', () => {
  it.each([
    ['1.0.0', '^1.0.0', true],
    ['1.9.3', '^1.0.0', true],
    ['2.0.0', '^1.0.0', false],
    ['0.9.0', '^1.0.0', false],
    ['0.1.5', '^0.1.0', true],
    ['0.2.0', '^0.1.0', false],
    ['1.2.9', '~1.2.0', true],
    ['1.3.0', '~1.2.0', false],
    ['1.2.3', '1.2.3', true],
    ['1.2.4', '1.2.3', false],
    ['1.5.0', '1.x', true],
    ['2.0.0', '>=1.0.0 <2.0.0', false],
    ['1.4.0', '>=1.0.0 <2.0.0', true],
    ['3.1.0', '^1.0.0 || ^3.0.0', true],
    ['1.0.0-beta.1', '^1.0.0', false],
    ['not-a-version', '^1.0.0', false],
  ])('%s in %s → %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('tells a malformed range from a valid one', () => {
    expect(isValidRange('^1.0.0')).toBe(true);
    expect(isValidRange('banana')).toBe(false);
    expect(satisfies('1.0.0', 'banana')).toBe(false);
  });
});
