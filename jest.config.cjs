// Every browser package's unit tests in one Jest run (npm test calls this).
module.exports = {
  // A run over several projects takes this from here, not from each project's config (the
  // packages' own 30 s in shared/build/jest.cjs applies only to a run inside one package).
  testTimeout: 30_000,
  projects: [
    '<rootDir>/shared',
    '<rootDir>/shared/api',
    '<rootDir>/host',
    '<rootDir>/remote-self-service',
    '<rootDir>/remote-groups',
    '<rootDir>/remote-adjudication',
    '<rootDir>/remote-mailing-lists',
    '<rootDir>/remote-tokens',
  ],
};
