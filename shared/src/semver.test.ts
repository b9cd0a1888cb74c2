import { compare as semverCompare, satisfies as semverSatisfies, validRange } from 'semver';
import { compareVersions, isValidRange, satisfies } from './semver';

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

describe("the browser's comparer answers as the semver package does", () => {
  // Pairs around every rule of precedence, pre-release fields foremost (semver.org, item 11).
  const versions = [
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.2',
    '1.0.0-alpha.10',
    '1.0.0-alpha.beta',
    '1.0.0-alpha.1.1',
    '1.0.0-beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0-1',
    '1.0.0-2',
    '1.0.0-10',
    '1.0.0-0a',
    '1.0.0-a-b',
    '1.0.0',
    '1.0.0+build.5',
    '1.0.1-0',
    '1.0.1',
    '1.2.0',
    '1.10.0',
    '2.0.0-rc.1',
    '2.0.0',
    '10.0.0',
  ];

  it('orders every pair of versions as semver.compare does', () => {
    const differ: string[] = [];
    for (const a of versions) {
      for (const b of versions) {
        if (compareVersions(a, b) !== semverCompare(a, b)) differ.push(`${a} vs ${b}: ${compareVersions(a, b)}, semver ${semverCompare(a, b)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('sorts numeric pre-release fields as numbers: alpha.2 before alpha.10', () => {
    expect(compareVersions('1.0.0-alpha.2', '1.0.0-alpha.10')).toBe(-1);
    expect(satisfies('1.0.0-alpha.10', '>=1.0.0-alpha.2')).toBe(true);
  });

  it('answers every range as semver.satisfies does', () => {
    const ranges = [
      '^1.0.0',
      '~1.0.0',
      '1.x',
      '>=1.0.0-alpha.2',
      '>=1.0.0-alpha.2 <1.0.0',
      '<1.0.0-beta.11',
      '^1.0.0-beta.2',
      '~1.0.1-0',
      '^2.0.0-rc.1',
      '>1.0.0-alpha.beta <=1.0.0-rc.1',
      '>1.x',
      '<=1.0.x',
      '<1.x',
      '>=1.0.0 <2.0.0 || ^10.0.0',
      '*',
      '',
    ];
    const differ: string[] = [];
    for (const range of ranges) {
      expect(isValidRange(range)).toBe(validRange(range) !== null);
      for (const version of versions) {
        if (satisfies(version, range) !== semverSatisfies(version, range)) differ.push(`${version} in '${range}': ${satisfies(version, range)}, semver ${semverSatisfies(version, range)}`);
      }
    }
    expect(differ).toEqual([]);
  });
});
