/**
 * Names in the directory. A username or group name becomes one RDN value, escaped as RFC 4514
 * section 2.4 requires, so that ',', '+', '=', '"', '\', '<', '>', ';', a leading '#' or space, a
 * trailing space or NUL cannot end the value and reach another entry. Searches use ldapts' filter
 * objects (values are sent as BER octets, never parsed from a string), so RFC 4515's escaping is
 * done by the library; `filterValue` is for the few string filters and the docs.
 */

/** One RDN attribute value, escaped (RFC 4514 section 2.4). Non-ASCII characters stay UTF-8, as the RFC allows. */
export function dnValue(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] ?? '';
    if (ch === '\0') out += '\\00';
    else if (',+"\\<>;='.includes(ch)) out += `\\${ch}`;
    else if ((i === 0 && (ch === ' ' || ch === '#')) || (i === value.length - 1 && ch === ' ')) out += `\\${ch}`;
    else out += ch;
  }
  return out;
}

/** A value inside a string filter (RFC 4515 section 3): '*', '(', ')', '\' and NUL as \XX. */
export function filterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (ch) => `\\${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export interface DirectoryLayout {
  base: string;
  people: string;
  groups: string;
  personDn(username: string): string;
  groupDn(name: string): string;
}

export function directoryLayout(base: string): DirectoryLayout {
  const people = `ou=people,${base}`;
  const groups = `ou=groups,${base}`;
  return {
    base,
    people,
    groups,
    personDn: (username) => `uid=${dnValue(username)},${people}`,
    groupDn: (name) => `cn=${dnValue(name)},${groups}`,
  };
}
