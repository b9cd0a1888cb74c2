require('@testing-library/jest-dom');

// findBy*/waitFor wait 1 s by default; on a loaded two-core CI machine the first render of a
// lazily loaded antd screen can take longer. A real failure still fails, only later.
require('@testing-library/react').configure({ asyncUtilTimeout: 5000 });
