const { createWebpackConfig } = require('@portal/shared/federation');

module.exports = createWebpackConfig({ appDir: __dirname, kind: 'host', name: 'host', devPort: 3100 });
