const { createWebpackConfig } = require('@portal/shared/federation');

module.exports = createWebpackConfig({ appDir: __dirname, kind: 'remote', name: 'adjudication', devPort: 3103 });
