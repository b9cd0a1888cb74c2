// @ts-check
/**
 * The Jest configuration of every browser package (shared, the host, the remotes): jsdom,
 * ts-jest, and the shims jsdom lacks. Each package's jest.config.cjs calls this with its folder.
 */
const path = require('node:path');

/** @param {string} packageDir @returns {import('jest').Config} */
function jestConfig(packageDir) {
  const name = path.basename(packageDir);
  return {
    displayName: name,
    rootDir: packageDir,
    testEnvironment: require.resolve('jest-environment-jsdom', { paths: [packageDir] }),
    testMatch: ['<rootDir>/src/**/*.test.ts?(x)'],
    transform: {
      '^.+\\.tsx?$': [
        require.resolve('ts-jest', { paths: [packageDir] }),
        // Types are checked by `tsc` for the whole workspace; here only transpile (much faster).
        { tsconfig: path.join(packageDir, 'tsconfig.json'), diagnostics: false },
      ],
      // typebox (the schemas of @portal/api) ships only ES modules: turned into CommonJS for Jest.
      '^.+\\.mjs$': [
        require.resolve('ts-jest', { paths: [packageDir] }),
        { tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022', esModuleInterop: true }, diagnostics: false },
      ],
    },
    transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/typebox@|typebox/))'],
    // The sources import each other with '.js' (for the server's nodenext build).
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    setupFiles: [path.join(__dirname, 'jest.shims.cjs')],
    setupFilesAfterEnv: [path.join(__dirname, 'jest.setup.cjs')],
    // CI runs every package's suites in one worker on two busy cores; a screen whose lazy chunk
    // and antd styles load first can take several seconds there (the 5 s default failed a run).
    testTimeout: 30_000,
  };
}

module.exports = { jestConfig };
