const { jestConfig } = require('../build/jest.cjs');

module.exports = jestConfig(__dirname);
