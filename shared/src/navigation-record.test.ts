/**
 * @jest-environment node
 */
/**
 * A remote's sidebar entries, as its build writes them into its record (portal-remote.json):
 * read from its src/navigation.ts at build time, each path, permission and count its page's or
 * kind's. (esbuild, which bundles the module, needs Node's own TextEncoder: not jsdom's.)
 */
import { tokensPages } from '@portal/api';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the webpack preset is CommonJS
const { declaredNavigation } = require('../build/federation.cjs') as {
  declaredNavigation(appDir: string): { navigation: unknown; inputs: string[] };
};

const REPO = join(__dirname, '..', '..');

describe("a remote's sidebar entries in its build's record", () => {
  it("are its src/navigation.ts's, with its pages' paths and permissions", () => {
    const { navigation } = declaredNavigation(join(REPO, 'remote-tokens'));
    expect(navigation).toEqual([
      { section: 'main', order: 50, label: 'Artifactory', path: tokensPages.artifactTokens.pattern, group: 'Tokens', when: 'service:artifacts' },
      { section: 'main', order: 51, label: 'Other Services', path: tokensPages.serviceTokens.pattern, group: 'Tokens' },
    ]);
  });

  it('carry, for a queue, its kind\'s path, permission and count', () => {
    const { navigation } = declaredNavigation(join(REPO, 'remote-groups'));
    expect(navigation).toContainEqual({
      section: 'manage-accounts',
      order: 70,
      label: 'User Group Requests',
      path: '/list-user-group-requests',
      permission: 'LIST_USER_GROUP_REQUESTS',
      count: 'total_usergroup',
    });
  });

  it('name the files they were made of, so that `npm start` rebuilds the remote when one changes, and not the modules they do not use', () => {
    const inputs = declaredNavigation(join(REPO, 'remote-tokens')).inputs.map((file) => relative(REPO, file));
    expect(inputs).toEqual(expect.arrayContaining(['remote-tokens/src/navigation.ts', 'shared/api/src/pages/tokens.ts', 'shared/api/src/pages/navigation.ts']));
    expect(inputs).not.toContain('shared/api/src/index.ts');
    expect(inputs).not.toContain('shared/api/src/pages/groups.ts');
  });

  describe('of a remote of its own', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'portal-navigation-'));
      mkdirSync(join(dir, 'src'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('are none when it has no src/navigation.ts', () => {
      rmSync(join(dir, 'src'), { recursive: true });
      expect(declaredNavigation(dir)).toEqual({ navigation: [], inputs: [] });
    });

    it('stop the build, saying what to export, when the module exports no list', () => {
      writeFileSync(join(dir, 'src', 'navigation.ts'), "export const entries = [{ label: 'Reports' }];\n");
      expect(() => declaredNavigation(dir)).toThrow(`${join('src', 'navigation.ts')} must export its sidebar entries as \`navigation\`, a list (docs/federation.md)`);
    });

    it('stop the build when an entry names a page the sidebar cannot open', () => {
      // The workspace's @portal/api, as a remote's dependency would resolve it.
      mkdirSync(join(dir, 'node_modules', '@portal'), { recursive: true });
      symlinkSync(join(REPO, 'shared', 'api'), join(dir, 'node_modules', '@portal', 'api'));
      writeFileSync(
        join(dir, 'src', 'navigation.ts'),
        "import { groupsPages, pageEntry } from '@portal/api';\nexport const navigation = [pageEntry(groupsPages.editUserGroupDetails, { section: 'main', order: 1, label: 'Edit' })];\n",
      );
      expect(() => declaredNavigation(dir)).toThrow('The sidebar cannot open /edit-usergroup-details/:usergroupId: a page with parameters needs them');
    });
  });
});
