// A node:test reporter for npm test's summary: writes one JSON object to its destination at the
// end, with the counts node:test prints itself (tests, not suites) and the time each test file
// took (its top-level tests' durations added up), so the summary can name the slowest files.
export default async function* fileTimes(source) {
  const counts = { pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  const files = new Map();
  const failures = [];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    const file = data.file ?? '(unknown file)';
    if (data.nesting === 0) files.set(file, (files.get(file) ?? 0) + (data.details?.duration_ms ?? 0));
    if (data.details?.type === 'suite') continue;
    if (data.skip !== undefined) counts.skipped++;
    else if (data.todo !== undefined) counts.todo++;
    else if (event.type === 'test:pass') counts.pass++;
    else if (data.details?.error?.failureType === 'cancelledByParent') counts.cancelled++;
    else {
      counts.fail++;
      failures.push({ file, name: data.name });
    }
  }
  const byFile = [...files].map(([file, ms]) => ({ file, ms: Math.round(ms) }));
  yield `${JSON.stringify({ ...counts, files: byFile, failures })}\n`;
}
