const { createWebpackConfig } = require('@portal/shared/federation');

module.exports = createWebpackConfig({ appDir: __dirname, kind: 'remote', name: 'self_service', devPort: 3101 });
