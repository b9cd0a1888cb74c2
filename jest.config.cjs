// Every browser package's unit tests in one Jest run (npm test calls this).
module.exports = {
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
