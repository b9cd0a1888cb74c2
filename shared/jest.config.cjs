const { jestConfig } = require('../shared/build/jest.cjs');

module.exports = jestConfig(__dirname);
