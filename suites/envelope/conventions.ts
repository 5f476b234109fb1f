/**
 * Pure helpers of the envelope suite: the response envelope (contract 2.1) and the id and timestamp
 * conventions, judged on any JSON body.
 */

/** Members holding timestamps: "Timestamps are numbers (integers)" (contract 2.1). */
export const TIMESTAMP_MEMBERS: ReadonlySet<string> = new Set([
  'cdate',
  'edate',
  'pdate',
  'at',
  'timestamp',
  'lockedSince',
  'versionTimestamp',
  'customCdate',
  'customEdate',
  'offlineAt',
]);

/**
 * Members whose content the contract does not show ("The fields of a message element: not shown", the
 * fields of options, selectedOptions, overview, construct parts, privilegeMap languages, latestVersion,
 * the indirect dependencies, and startPageId's type): the conventions cannot be judged there.
 */
const NOT_SHOWN: ReadonlySet<string> = new Set([
  'messages',
  'options',
  'selectedOptions',
  'overview',
  'parts',
  'languages',
  'latestVersion',
  'dependencies',
  'startPageId',
]);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Members that are maps (contract 2: "map string to ..."): their keys are tag names, part keywords, language codes,
 * privilege names, global ids or copy ids, never member names, so a key ending in `Id` is no identifier. Their values
 * are judged: `nodeIds` maps "localized-copy ID to node ID", each value an identifier.
 */
const MAPS: ReadonlySet<string> = new Set([
  'tags',
  'objectTags',
  'templateTags',
  'properties',
  'languageVariants',
  'privileges',
  'nameI18n',
  'descriptionI18n',
  'publishDirI18n',
  'stagingStatus',
  'perms',
  'nodeIds',
]);

/**
 * Whether a record is one whose `channelId` the contract types as a number: a folder (2.3) or a page (2.6). The file's
 * is "object in the shapes; its type: not shown" (2.4), and a record that shows neither kind may be a file.
 */
function numericChannelId(record: Record<string, unknown>): boolean {
  return ['folder', 'channel', 'node', 'page'].includes(String(record.type)) || 'pdate' in record || 'motherId' in record;
}

/**
 * What is wrong with the envelope of a JSON body: "`messages`: array of objects", "`responseInfo`:
 * object with `responseCode` (string ...), `responseMessage` (string) and `property` (string)".
 */
export function envelopeProblems(body: unknown): string[] {
  if (!isObject(body)) return [`the body is ${Array.isArray(body) ? 'an array' : JSON.stringify(body)}, not an object with the envelope`];
  const problems: string[] = [];
  if (!Array.isArray(body.messages))
    problems.push(`messages is ${body.messages === undefined ? 'missing' : JSON.stringify(body.messages)}, not an array`);
  else if (body.messages.some((m) => !isObject(m))) problems.push('messages holds elements that are not objects');
  const info = body.responseInfo;
  if (!isObject(info)) problems.push(`responseInfo is ${info === undefined ? 'missing' : JSON.stringify(info)}, not an object`);
  else {
    // Contract 7: "Every response carries `responseInfo` with `responseCode`": a refusal's as much as a success's.
    if (info.responseCode === undefined) problems.push('responseInfo has no responseCode');
    for (const key of ['responseCode', 'responseMessage', 'property']) {
      if (info[key] !== undefined && typeof info[key] !== 'string')
        problems.push(`responseInfo.${key} is ${JSON.stringify(info[key])}, not a string`);
    }
  }
  return problems;
}

/** An identifier member: `id` or a name ending in `Id` (folderId, masterNodeId, languagesId ...), never `globalId`. */
export function isIdMember(key: string): boolean {
  return key === 'id' || (key.endsWith('Id') && key !== 'globalId');
}

/** One value breaking the conventions, with its JSON path. */
export interface ConventionBreak {
  path: string;
  value: unknown;
  rule: string;
}

/**
 * Every value of a JSON body that breaks "Identifiers (`id`, `folderId`, `nodeId`, ...) are integers ...
 * `globalId` is a string. Timestamps are numbers (integers)" (contract 2.1). Null values are left out
 * (members without a value), and so are the members the contract does not show (NOT_SHOWN) and the
 * `channelId` of a record that may be a file ("object in the shapes; its type: not shown", 2.4). The keys of maps
 * are not members (MAPS).
 */
export function conventionBreaks(body: unknown, path = '$'): ConventionBreak[] {
  const out: ConventionBreak[] = [];
  if (Array.isArray(body)) {
    body.forEach((v, i) => out.push(...conventionBreaks(v, `${path}[${i}]`)));
    return out;
  }
  if (!isObject(body)) return out;
  for (const [key, value] of Object.entries(body)) {
    const at = `${path}.${key}`;
    if (value === null || value === undefined) continue;
    if (key === 'globalId') {
      if (typeof value !== 'string') out.push({ path: at, value, rule: 'a globalId is a string' });
    } else if (NOT_SHOWN.has(key) || (key === 'channelId' && !numericChannelId(body))) {
      continue;
    } else if (MAPS.has(key) && isObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        const within = `${at}[${JSON.stringify(k)}]`;
        if (key === 'nodeIds' && (typeof v !== 'number' || !Number.isInteger(v)))
          out.push({ path: within, value: v, rule: 'an identifier is an integer' });
        else out.push(...conventionBreaks(v, within));
      }
      continue;
    } else if (isIdMember(key)) {
      const values = Array.isArray(value) ? value : [value];
      values.forEach((v, i) => {
        if (v !== null && (typeof v !== 'number' || !Number.isInteger(v)))
          out.push({ path: Array.isArray(value) ? `${at}[${i}]` : at, value: v, rule: 'an identifier is an integer' });
      });
      continue;
    } else if (TIMESTAMP_MEMBERS.has(key) && !isObject(value)) {
      if (typeof value !== 'number' || !Number.isInteger(value)) out.push({ path: at, value, rule: 'a timestamp is an integer' });
      continue;
    }
    out.push(...conventionBreaks(value, at));
  }
  return out;
}

/** Whether a Content-Type header names JSON: "application/json", parameters such as charset allowed. */
export function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && /^application\/json\s*(;|$)/i.test(header.trim());
}
