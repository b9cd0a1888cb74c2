/**
 * README's configuration tables, made from the settings' schemas (config.ts): what each setting
 * means, its variable and its default are written once, there. `npm run docs` writes them into
 * README between the markers below; a test fails when README's copy differs.
 */
import { CONFIG_FILE_VARIABLE, envVarFor, PORTAL_CONFIGURATION, SERVER_SETTINGS, settingsOf } from './config.js';
import type { ConfigurationKey } from '@portal/api';

export const BEGIN_MARKER = '<!-- The tables below are made from server/src/config.ts by `npm run docs`: edit them there. -->';
export const END_MARKER = '<!-- End of the tables made from server/src/config.ts. -->';

type Setting = ReturnType<typeof settingsOf>[number][1];

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function shownDefault(setting: Setting): string {
  if (setting.defaultText !== undefined) return setting.defaultText;
  const value = setting.default;
  if (value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0)) return '*(unset)*';
  if (value === '') return '*(empty)*';
  return `\`${String(value)}\``;
}

/** What it means, with a whole number's bounds. */
function meaning(setting: Setting): string {
  const { type, minimum, maximum } = setting as { type?: string; minimum?: number; maximum?: number };
  if (type !== 'integer' || minimum === undefined) return cell(setting.description ?? '');
  const bounds = maximum === undefined || maximum === Number.MAX_SAFE_INTEGER ? `at least ${minimum}` : `${minimum}–${maximum}`;
  return `${cell(setting.description ?? '')}; ${bounds}`;
}

/** The Markdown README holds between its markers. */
export function configurationTables(): string {
  const portal = settingsOf(PORTAL_CONFIGURATION).map(
    ([key, setting]) => `| \`${key}\` | \`${envVarFor(key as ConfigurationKey)}\` | ${shownDefault(setting)} | ${meaning(setting)} |`,
  );
  const server = settingsOf(SERVER_SETTINGS).map(([, setting]) => `| \`${setting.env}\` | ${shownDefault(setting)} | ${meaning(setting)} |`);
  return [
    BEGIN_MARKER,
    '',
    '| key | environment variable | default | meaning |',
    '|---|---|---|---|',
    ...portal,
    '',
    'Booleans: `true/false/1/0/yes/no` in the environment, JSON booleans in the file; numbers are',
    'digits in the environment, whole JSON numbers in the file. The literal `undefined` defaults are',
    "the spec's (section 8) and are served as such.",
    '',
    '**Server settings** (environment variables only; relative paths from the working directory):',
    '',
    '| variable | default | meaning |',
    '|---|---|---|',
    `| \`${CONFIG_FILE_VARIABLE}\` | *(unset)* | the portal configuration's JSON file (above) |`,
    ...server,
    '',
    END_MARKER,
  ].join('\n');
}

/** README with its tables made again; throws when its markers are missing. */
export function withConfigurationTables(readme: string): string {
  const begin = readme.indexOf(BEGIN_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (begin < 0 || end < begin) throw new Error(`README has no configuration tables between "${BEGIN_MARKER}" and "${END_MARKER}"`);
  return readme.slice(0, begin) + configurationTables() + readme.slice(end + END_MARKER.length);
}
