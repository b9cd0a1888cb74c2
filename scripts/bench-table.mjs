// The table of the latest full `npm run bench` in docs/performance.md. The bench writes it there
// itself, between two marker comments, with the date, the commit and the machine, so that the
// figures in the docs are always one run's and say which; the runs before it are in git's history.
// Plain Node, no dependencies.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

export const BENCH_TABLE_START = '<!-- bench table: written by `npm run bench`, replaced at each full run -->';
export const BENCH_TABLE_END = '<!-- end of bench table -->';

/** When, on what code and on what machine this run is measured. */
export function runOf(root, now = new Date()) {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  let commit;
  try {
    commit = git('rev-parse', '--short', 'HEAD');
    // Uncommitted changes to the code make the figures another code's than the commit's.
    if (git('status', '--porcelain', '--untracked-files=no') !== '') commit += ' with uncommitted changes';
  } catch {
    commit = 'unknown (not a git checkout)';
  }
  const cpus = os.cpus();
  return {
    date: now.toISOString().slice(0, 10),
    commit,
    machine: `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${os.platform()} ${os.arch()}, Node ${process.version}, load average ${os.loadavg()[0].toFixed(2)} at the start`,
  };
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * The table (markdown, with its markers): one row a figure, `{ what, figure, target, met }`;
 * `met` is true, false, or undefined for a figure without a target.
 */
export function renderBenchTable(figures, { date, commit, machine }) {
  const mark = (met) => (met === undefined ? '' : met ? 'met' : '**missed**');
  return [
    BENCH_TABLE_START,
    `\`npm run bench\` on ${date}, commit ${commit}; ${machine}.`,
    '',
    '| what | figure | target | |',
    '|---|---:|---|---|',
    ...figures.map((f) => `| ${cell(f.what)} | ${cell(f.figure)} | ${cell(f.target ?? '')} | ${mark(f.met)} |`),
    BENCH_TABLE_END,
  ].join('\n');
}

/** `text` with the table between its markers replaced by `table`; an error when the markers are not there once each. */
export function replaceBenchTable(text, table) {
  const start = text.indexOf(BENCH_TABLE_START);
  const end = text.indexOf(BENCH_TABLE_END);
  if (start < 0 || end < start || text.indexOf(BENCH_TABLE_START, start + 1) >= 0) {
    throw new Error(`The bench table's markers (${BENCH_TABLE_START} … ${BENCH_TABLE_END}) must each be in the file once, in that order.`);
  }
  return text.slice(0, start) + table + text.slice(end + BENCH_TABLE_END.length);
}

/** Writes the figures into the file's table (docs/performance.md). */
export function writeBenchTable(file, figures, run) {
  writeFileSync(file, replaceBenchTable(readFileSync(file, 'utf8'), renderBenchTable(figures, run)));
}
