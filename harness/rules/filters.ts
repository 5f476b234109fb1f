/**
 * Filter rules one answer can refute: a listed record whose own members show a value the filter
 * excludes. Only what a record shows is judged: a record without the member, or a filter value the
 * contract gives no meaning to, is not. Which listings take a filter is the catalogue's word (the
 * operation has the parameter), never a list of ours.
 */
import { brief } from '../oracles.ts';
import { listOf, text } from '../records.ts';
import { idsOf, nested, type ListAnswer, type Rec, type Rule } from './answer.ts';

/** Whether the listing takes a parameter (schemas/operations.json). */
const takes = (a: ListAnswer, param: string): boolean => a.spec.parameters.has(param);

/**
 * A boolean filter: "true only ..., false only ..., unset both", judged on the record member of the same name.
 * `trueOnly`: a record saying true does not refute the false side (what the member says of such records is open).
 */
function flagRule(param: string, requirement: string, sentence: string, on: (a: ListAnswer) => boolean, trueOnly = false): Rule {
  return {
    requirement,
    check: param,
    sentence,
    parameters: [param],
    applies: (a) => on(a) && typeof a.params.bool(param) === 'boolean' && (!trueOnly || a.params.bool(param) === true),
    refute: (a) => {
      const value = a.params.bool(param)!;
      const wrong = a.records.filter((r) => r[param] === !value);
      return wrong.length ? [`${param}=${value} ("${sentence}") lists ${idsOf(wrong)}, whose records say ${param}: ${!value}`] : [];
    },
  };
}

const pages = (a: ListAnswer): boolean => a.op === 'folder.getPages';

/** A timestamp bound: "since" drops earlier items, "before" later ones; an item stamped at the bound may go either way. */
function boundRule(param: string, member: string, since: boolean, requirement: string, sentence: string): Rule {
  const bound = (a: ListAnswer): number | undefined => {
    const b = a.params.int(param);
    // 0 means no restriction; a negative bound has no meaning in the contract.
    return typeof b === 'number' && b > 0 ? b : undefined;
  };
  return {
    requirement,
    check: param,
    sentence,
    parameters: [param],
    applies: (a) => takes(a, param) && bound(a) !== undefined,
    refute: (a) => {
      const b = bound(a)!;
      const outside = (v: unknown) => typeof v === 'number' && (since ? v < b : v > b);
      // A page's custom date (contract 2.6: "customCdate ... custom creation date") may be the one a server filters by
      // (open choice custom-dates): a record is refuted only when every date it shows lies outside the bound.
      const custom = CUSTOM_DATES[member];
      const wrong = a.records.filter(
        (r) => outside(r[member]) && (custom === undefined || typeof r[custom] !== 'number' || r[custom] === 0 || outside(r[custom])),
      );
      if (!wrong.length) return [];
      return [
        `${param}=${b} must drop the items with ${member} ${since ? 'before' : 'after'} ${b}, but lists ${brief(wrong.map((r) => `${String(r.id)} (${member} ${String(r[member])})`))}`,
      ];
    },
  };
}

/** The custom date a page may carry beside a real one (contract 2.6). */
const CUSTOM_DATES: Readonly<Record<string, string>> = { cdate: 'customCdate', edate: 'customEdate' };

/** A user filter (creatorId, editorId): "IDs to restrict by creator / editor", judged on the record's user id. */
function userRule(param: string, role: string): Rule {
  return {
    requirement: 'FLT-04',
    check: param,
    sentence: `${param}: IDs to restrict by ${role}`,
    parameters: [param],
    applies: (a) => takes(a, param) && Array.isArray(a.params.ints(param)),
    refute: (a) => {
      const ids = a.params.ints(param)!;
      const wrong = a.records.filter((r) => typeof nested(r[role], 'id') === 'number' && !ids.includes(nested(r[role], 'id') as number));
      if (!wrong.length) return [];
      return [
        `${param}=${ids.join(',')} must restrict to items whose ${role} is one of them, but lists ${brief(wrong.map((r) => `${String(r.id)} (${role} ${String(nested(r[role], 'id'))})`))}`,
      ];
    },
  };
}

/** Whether a text member contains the term, ignoring case; undefined when the record does not show the member. */
function contains(value: unknown, term: string): boolean | undefined {
  if (value === null || value === '') return false;
  return typeof value === 'string' ? value.toLowerCase().includes(term.toLowerCase()) : undefined;
}

/**
 * Whether a record matches a search term through its id or the text members given; undefined when a
 * member the record does not show might have matched.
 */
function matches(r: Rec, term: string, texts: readonly unknown[]): boolean | undefined {
  if (String(r.id) === term || r.globalId === term) return true;
  let unknown = false;
  for (const t of texts) {
    const m = contains(t, term);
    if (m) return true;
    if (m === undefined) unknown = true;
  }
  return unknown ? undefined : false;
}

/** A search filter: the term, the record's text members it may match, and what the message says it must match. */
function searchRule(
  param: string,
  requirement: string,
  sentence: string,
  on: (a: ListAnswer) => boolean,
  texts: (a: ListAnswer, r: Rec) => unknown[],
  what: (a: ListAnswer) => string,
): Rule {
  return {
    requirement,
    check: param,
    sentence,
    parameters: [param],
    applies: (a) => on(a) && !!a.params.text(param),
    refute: (a) => {
      const term = a.params.text(param)!;
      const wrong = a.records.filter((r) => matches(r, term, texts(a, r)) === false);
      return wrong.length
        ? [
            `${param}=${term} must list only items ${what(a)}, but lists ${brief(wrong.map((r) => `${String(r.id)} ("${String(r.name)}")`))}`,
          ]
        : [];
    },
  };
}

/** A getPages value filter: a listed page whose member shows another value refutes it. */
function pageValueRule(
  param: string,
  sentence: string,
  asked: (a: ListAnswer) => string | undefined,
  wrongOf: (a: ListAnswer) => string[],
  parameters: readonly string[] = [param],
): Rule {
  return {
    requirement: 'FLT-09',
    check: param,
    sentence,
    parameters,
    applies: (a) => takes(a, param) && pages(a) && asked(a) !== undefined,
    refute: (a) => {
      const wrong = wrongOf(a);
      return wrong.length ? [`${asked(a)!}, but lists ${brief(wrong)}`] : [];
    },
  };
}

/** The niceurl pattern as a JavaScript expression; undefined when absent or unreadable (possessive quantifiers, inline flags): not judged. */
function niceUrlPattern(a: ListAnswer): RegExp | undefined {
  const pattern = a.params.text('niceurl');
  if (!pattern) return undefined;
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
}

/** The filter rules, each under its requirement. */
export const FILTER_RULES: readonly Rule[] = [
  flagRule('online', 'FLT-07', 'online: true: only online files; false: only offline; unset: both', (a) => takes(a, 'online') && !pages(a)),
  flagRule('broken', 'FLT-07', 'broken: true: only broken files; false: only non-broken; unset: both', (a) => takes(a, 'broken')),
  flagRule('online', 'FLT-09', 'online: restrict to online / offline', (a) => takes(a, 'online') && pages(a)),
  flagRule('modified', 'FLT-09', 'modified: restrict to modified / unmodified', (a) => takes(a, 'modified')),
  flagRule('planned', 'FLT-09', 'planned: restrict to planned / unplanned', (a) => takes(a, 'planned')),
  flagRule('queued', 'FLT-09', 'queued: restrict to queued / unqueued', (a) => takes(a, 'queued')),
  // A localized copy, listed under inherited=false, may say inherited true (open choice localized-copy-inherited): only the
  // true side is judged by a record alone.
  flagRule(
    'inherited',
    'FLT-05',
    'inherited: true: only inherited in the given node; false: only local/localized; unset: both',
    (a) => takes(a, 'inherited'),
    true,
  ),
  boundRule(
    'createdsince',
    'cdate',
    true,
    'FLT-03',
    'createdbefore/createdsince/editedbefore/editedsince restrict by timestamp; 0 means no restriction.',
  ),
  boundRule(
    'createdbefore',
    'cdate',
    false,
    'FLT-03',
    'createdbefore/createdsince/editedbefore/editedsince restrict by timestamp; 0 means no restriction.',
  ),
  boundRule(
    'editedsince',
    'edate',
    true,
    'FLT-03',
    'createdbefore/createdsince/editedbefore/editedsince restrict by timestamp; 0 means no restriction.',
  ),
  boundRule(
    'editedbefore',
    'edate',
    false,
    'FLT-03',
    'createdbefore/createdsince/editedbefore/editedsince restrict by timestamp; 0 means no restriction.',
  ),
  boundRule('publishedsince', 'pdate', true, 'FLT-09', 'publishedsince: timestamp filter; 0 means all'),
  boundRule('publishedbefore', 'pdate', false, 'FLT-09', 'publishedbefore: timestamp filter; 0 means all'),
  userRule('creatorId', 'creator'),
  userRule('editorId', 'editor'),
  pageValueRule(
    'template_id',
    'template_id: template IDs',
    (a) => {
      const ids = a.params.ints('template_id');
      return ids ? `template_id=${ids.join(',')} must list only pages of those templates` : undefined;
    },
    (a) => {
      const ids = a.params.ints('template_id')!;
      return a.records
        .filter((r) => typeof r.templateId === 'number' && !ids.includes(r.templateId))
        .map((r) => `${String(r.id)} (templateId ${String(r.templateId)})`);
    },
  ),
  pageValueRule(
    'priority',
    'priority: page priority',
    (a) => {
      const p = a.params.int('priority');
      return typeof p === 'number' && p !== 0 ? `priority=${p} must list no page of a lower priority` : undefined;
    },
    (a) => {
      // "page priority": the pages of that priority, or of at least that priority (open choice priority-filter); never lower.
      const p = a.params.int('priority')!;
      return a.records
        .filter((r) => typeof r.priority === 'number' && r.priority < p)
        .map((r) => `${String(r.id)} (priority ${String(r.priority)})`);
    },
  ),
  pageValueRule(
    'language',
    'language: language code',
    (a) => {
      // "langfallback ... use the highest-priority language variant ... when the page lacks the language": judged with it off.
      const language = a.params.text('language');
      return typeof language === 'string' && language !== '' && a.params.bool('langfallback') === false
        ? `language=${language}&langfallback=false must list only pages in ${language}`
        : undefined;
    },
    (a) => {
      const language = a.params.text('language')!;
      return a.records
        .filter((r) => typeof r.language === 'string' && r.language !== language)
        .map((r) => `${String(r.id)} (${String(r.language)})`);
    },
    // A page in another language listed here is what the fallback would add: it shows langfallback=false too.
    ['language', 'langfallback'],
  ),
  pageValueRule(
    'insync',
    'insync: true: only pages in sync with their translation masters; false: only not in sync; unset: ignore. Setting it adds translation status.',
    (a) => {
      const insync = a.params.bool('insync');
      return typeof insync === 'boolean'
        ? `insync=${insync} must list only pages ${insync ? '' : 'not '}in sync with their translation masters`
        : undefined;
    },
    (a) => {
      const insync = a.params.bool('insync')!;
      // Only a page whose translation status shows the opposite is judged: a page that is no translation may go either way.
      return a.records
        .filter((r) => nested(r.translationStatus, 'inSync') === !insync)
        .map((r) => `${String(r.id)} (translationStatus.inSync ${String(!insync)})`);
    },
  ),
  pageValueRule(
    'publisherId',
    'publisherId: publisher IDs',
    (a) => {
      const ids = a.params.ints('publisherId');
      return ids ? `publisherId=${ids.join(',')} must list only pages published by one of those users` : undefined;
    },
    (a) => {
      const ids = a.params.ints('publisherId')!;
      return a.records
        .filter((r) => typeof nested(r.publisher, 'id') === 'number' && !ids.includes(nested(r.publisher, 'id') as number))
        .map((r) => `${String(r.id)} (publisher ${String(nested(r.publisher, 'id'))})`);
    },
  ),
  pageValueRule(
    'filename',
    'filename: filename search string (may be empty)',
    (a) => {
      const filename = a.params.text('filename');
      return filename ? `filename=${filename} must list only pages whose file name contains it` : undefined;
    },
    (a) => {
      const filename = a.params.text('filename')!.toLowerCase();
      return a.records
        .filter((r) => typeof r.fileName === 'string' && !r.fileName.toLowerCase().includes(filename))
        .map((r) => `${String(r.id)} (${String(r.fileName)})`);
    },
  ),
  searchRule(
    'search',
    'FLT-01',
    'Group L `search` matches the ID, or part of the name or description.',
    (a) => takes(a, 'search') && a.params.bool('searchcontent') !== true,
    (_a, r) => [r.name, r.description],
    () => 'whose id is the term or whose name or description contains it',
  ),
  searchRule(
    'q',
    'FLT-02',
    'Group P `q` filters; GET /file filters by id, name, description, niceUrl, alternateUrls.',
    (a) => takes(a, 'q'),
    // An absent member reads as empty (harness/records.ts). GET /folder's q is "filter query" alone: a folder's publish
    // directory and path are texts of it a server may search too.
    (a, r) =>
      a.op === 'file.list'
        ? [text(r, 'name'), text(r, 'description'), text(r, 'niceUrl'), ...listOf(r, 'alternateUrls')]
        : [text(r, 'name'), text(r, 'description'), text(r, 'publishDir'), text(r, 'path')],
    (a) =>
      a.op === 'file.list'
        ? 'whose id is the term or whose name, description, niceUrl or alternateUrls contain it'
        : 'whose id is the term or whose name, description, publish directory or path contains it',
  ),
  searchRule(
    'query',
    'FLT-10',
    'findFiles/findPages `query` matches names',
    (a) => takes(a, 'query'),
    (_a, r) => [r.name],
    () => 'whose name contains it',
  ),
  {
    requirement: 'FLT-08',
    check: 'niceurl',
    sentence: '`niceurl` is a regular expression matched against the nice URL.',
    parameters: ['niceurl'],
    applies: (a) => takes(a, 'niceurl') && niceUrlPattern(a) !== undefined,
    refute: (a) => {
      const re = niceUrlPattern(a)!;
      // A match anywhere passes (find, not full match), in the nice URL or one of the alternate URLs.
      const wrong = a.records.filter(
        (r) =>
          typeof r.niceUrl === 'string' &&
          !re.test(r.niceUrl) &&
          !(Array.isArray(r.alternateUrls) && r.alternateUrls.some((u) => typeof u === 'string' && re.test(u))),
      );
      return wrong.length
        ? [
            `niceurl=${a.params.text('niceurl')!} must list only items whose nice URL matches it, but lists ${brief(wrong.map((r) => `${String(r.id)} (${String(r.niceUrl)})`))}`,
          ]
        : [];
    },
  },
];
