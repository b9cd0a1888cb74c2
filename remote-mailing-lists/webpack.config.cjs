const { createWebpackConfig } = require('@portal/shared/federation');

module.exports = createWebpackConfig({ appDir: __dirname, kind: 'remote', name: 'mailing_lists', devPort: 3104 });
