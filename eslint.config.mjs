// @ts-check
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const REMOTES = ['remote-self-service', 'remote-groups', 'remote-adjudication', 'remote-mailing-lists', 'remote-tokens'];

/** Boundaries (style.md 7): remotes and the host import `@portal/shared`, never each other. */
const boundaries = (self) => ({
  files: [`${self}/src/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [
              ...['host', ...REMOTES].filter((p) => p !== self).flatMap((p) => [`@portal/${p}`, `@portal/${p}/*`, `**/${p}/**`]),
              '@portal/server',
              '**/server/src/**',
              '@portal/shared/src/*',
            ],
            message: 'Apps share code only through @portal/shared and @portal/api: a remote must deploy without the others.',
          },
        ],
      },
    ],
  },
});

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/test-results/**', '**/playwright-report/**', '.portal/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['**/*.{tsx,ts}'],
    ignores: ['server/**', 'e2e/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // The server's modules form no import cycle: in a cycle, one module runs while another's
  // exports are still undefined, and which one depends on who is loaded first (a test, the CLI
  // or the app). Type-only imports do not count; they leave nothing in the compiled JavaScript.
  {
    files: ['server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The modules the rule reads: without '.ts' here it would follow none of them.
      'import-x/extensions': ['.ts', '.js'],
      // The server's imports name the compiled '.js' of a '.ts' module (NodeNext).
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // Node's CommonJS config files (webpack, jest) are plain CommonJS by design.
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // The browser apps must not reach into the server, nor remotes into each other or the host.
  ...['host', ...REMOTES].map(boundaries),
  {
    files: ['shared/src/**/*.{ts,tsx}', 'shared/api/src/**/*.ts'],
    ignores: ['shared/src/**/*.test.{ts,tsx}', 'shared/src/testing.tsx', 'shared/src/app-sources.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'shared runs in the browser too.' }] }],
    },
  },
  // @portal/api is bundled by the server and by every app: no React, no singleton, no browser-only code.
  {
    files: ['shared/api/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: '@portal/api runs in the browser too.' },
            { group: ['@portal/shared', '@portal/shared/*', 'react', 'react-*', 'antd', '**/shared/src/**'], message: '@portal/api holds definitions only: the server imports it.' },
          ],
        },
      ],
    },
  },
  // The components are bundled by each remote: what must be one per page comes from the singleton's
  // package name, never a relative path (a relative import would give the remote a second store).
  {
    files: ['shared/src/components/**/*.{ts,tsx}'],
    ignores: ['shared/src/components/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*', 'node:*'], message: "Import the singleton's parts from '@portal/shared', and other components from './'." }] },
      ],
    },
  },
  // The queues' pages likewise (bundled by each remote that owns a queue), with the components beside them.
  {
    files: ['shared/src/requests/**/*.{ts,tsx}'],
    ignores: ['shared/src/requests/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../*', '!../components', '!../components/*', 'node:*'], message: "Import the singleton's parts from '@portal/shared', the components from '../components/', and the rest from './'." },
          ],
        },
      ],
    },
  },
);
