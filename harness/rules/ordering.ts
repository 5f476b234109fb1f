/**
 * Ordering rules one answer can refute: Group L `sortby`/`sortorder` (and the usage lists, which obey
 * them), Group P `sort`. Where the contract leaves a detail open (name collation, whether an order
 * follows a name or an id, how equal keys are ordered), every reasonable answer passes.
 */
import { brief, numbersOrdered, stringsOrdered, type Direction } from '../oracles.ts';
import { nested, type ListAnswer, type Rec, type Rule } from './answer.ts';

/** A sort key of a record; a record whose key is undefined is left out of the order check. */
type Key = (r: Rec) => unknown;

/**
 * Group L `sortby` values (contract 4.1: "one of name, cdate, edate, pdate, filename, template,
 * folder, masterNode, priority, excluded, deletedat") and the record members that show them; where
 * the contract does not say whether the order follows a name or an id, either one passes.
 */
export const LEGACY_KEYS: Readonly<Record<string, readonly Key[]>> = {
  name: [(r) => r.name],
  // A page's custom date (contract 2.6: "customCdate ... custom creation date") is the date its editors see: either may order.
  cdate: [(r) => r.cdate, (r) => customOr(r, 'customCdate', 'cdate')],
  edate: [(r) => r.edate, (r) => customOr(r, 'customEdate', 'edate')],
  // 0: never published, never deleted. Where such objects go is not shown (SQL puts NULLs first or last): left out.
  pdate: [(r) => timeOrNothing(r.pdate)],
  filename: [(r) => r.fileName],
  template: [(r) => nested(r.template, 'name'), (r) => r.templateId],
  folder: [(r) => nested(r.folder, 'name'), (r) => r.folderId],
  masterNode: [(r) => r.masterNode, (r) => r.masterNodeId],
  priority: [(r) => r.priority],
  excluded: [(r) => r.excluded],
  deletedat: [(r) => timeOrNothing(nested(r.deleted, 'at'))],
};

/** A custom date where the record carries one (not 0, which "clears it and falls back to the real date"), else the real one. */
function customOr(r: Rec, custom: string, real: string): unknown {
  return typeof r[custom] === 'number' && r[custom] !== 0 ? r[custom] : r[real];
}

/** A timestamp, or undefined for 0 (no time: open choice nulls-order). */
const timeOrNothing = (v: unknown): unknown => (v === 0 ? undefined : v);

/** The attributes GET /file sorts by (SRT-05: "GET /file sorts by id, name, niceUrl, alternateUrls, fileSize, fileType"). */
const FILE_SORT = new Set(['id', 'niceUrl', 'alternateUrls', 'fileSize', 'fileType']);

/** A Group P sort attribute as a key: the record member of that name; alternateUrls by its alphabetically first URL. */
function attributeKey(name: string): Key {
  if (name === 'alternateUrls')
    return (r) =>
      Array.isArray(r.alternateUrls) && r.alternateUrls.length ? [...(r.alternateUrls as unknown[])].map(String).sort()[0] : undefined;
  return (r) => r[name];
}

/**
 * Whether values are in order under some reasonable collation; undefined and null are left out, and
 * values of mixed JSON types are not judged (the judge reports such a record's shape).
 */
function ordered(values: readonly unknown[], dir: Direction): boolean {
  const present = values.filter((v) => v !== undefined && v !== null);
  if (present.every((v) => typeof v === 'string')) return stringsOrdered(present as string[], dir);
  if (present.every((v) => typeof v === 'number' || typeof v === 'boolean')) return numbersOrdered(present as (number | boolean)[], dir);
  return true;
}

/** Splits records into runs of equal key values (exactly equal: a tie under every collation); a record without the key ends a run. */
function runsOf(records: readonly Rec[], key: Key): Rec[][] {
  const runs: Rec[][] = [];
  let last: unknown = undefined;
  for (const r of records) {
    const v = key(r);
    const tail = runs[runs.length - 1];
    if (tail && v !== undefined && v !== null && v === last) tail.push(r);
    else runs.push([r]);
    last = v;
  }
  return runs;
}

/** One attribute of an order: its name, the keys that may show it, its direction. */
interface OrderSpec {
  name: string;
  keys: readonly Key[];
  dir: Direction;
}

/**
 * The first attribute of a multi-key order that the records break, or undefined. Later attributes are
 * judged only within runs whose earlier keys are exactly equal: ties under a looser collation may be
 * broken either way without the check knowing, so it only ever judges less, never wrongly.
 */
function brokenAttribute(
  records: readonly Rec[],
  specs: readonly OrderSpec[],
): { name: string; dir: Direction; values: unknown[] } | undefined {
  let groups: Rec[][] = [[...records]];
  for (const spec of specs) {
    for (const group of groups) {
      if (group.length < 2) continue;
      if (!spec.keys.some((key) => ordered(group.map(key), spec.dir)))
        return { name: spec.name, dir: spec.dir, values: group.map(spec.keys[0]!).filter((v) => v !== undefined) };
    }
    groups = groups.flatMap((g) => runsOf(g, spec.keys[0]!));
  }
  return undefined;
}

/** What a Group L or usage request asked to be ordered by, and the requirement its order falls to; undefined when not judged. */
function legacyOrder(a: ListAnswer): { requirement: string; spec: OrderSpec; asked: string } | undefined {
  if (a.spec.paging !== 'L' && a.spec.paging !== 'usage') return undefined;
  const sortby = a.params.text('sortby');
  const sortorder = a.params.text('sortorder');
  if (sortby === null || sortorder === null) return undefined;
  const attribute = sortby ?? 'name';
  // An attribute the contract does not list (or spells otherwise) may be refused or fall back: not judged.
  const keys = Object.hasOwn(LEGACY_KEYS, attribute) ? LEGACY_KEYS[attribute]! : undefined;
  if (!keys) return undefined;
  // The usage lists show only `sortby` (string, `name`): another attribute may be taken or fall back to name (open choice usage-sortby).
  const accepted = a.spec.paging === 'usage' && attribute !== 'name' ? [...keys, ...LEGACY_KEYS.name!] : keys;
  // "sortorder (string, asc; asc or desc, other strings ignored)": "DESC" is neither desc nor plainly another string.
  if (sortorder !== undefined && sortorder !== 'desc' && sortorder.trim().toLowerCase() === 'desc') return undefined;
  const dir: Direction = sortorder === 'desc' ? 'desc' : 'asc';
  // A sortby given (name included) is SRT-03's "sortby accepts name, cdate, ..."; sortorder alone SRT-02's; neither SRT-01's default.
  const requirement =
    a.spec.paging === 'usage' ? 'USE-03' : sortby !== undefined ? 'SRT-03' : sortorder !== undefined ? 'SRT-02' : 'SRT-01';
  const asked = `${sortby === undefined ? 'sortby absent (name)' : `sortby=${sortby}`}, ${sortorder === undefined ? 'sortorder absent (asc)' : `sortorder=${sortorder}`}`;
  return { requirement, spec: { name: attribute, keys: accepted, dir }, asked };
}

/** The attributes a Group P request asked to be ordered by; undefined when not judged. */
function pageOrder(a: ListAnswer): { specs: OrderSpec[]; asked: string } | undefined {
  if (a.spec.paging !== 'P') return undefined;
  const sort = a.params.text('sort');
  if (sort === null) return undefined;
  const specs: OrderSpec[] = [];
  for (const raw of (sort ?? 'name').split(',')) {
    // An unencoded "+" arrives as a space: both mean ascending.
    const s = raw.trim();
    const name = s.replace(/^[+-]/, '').trim();
    if (!/^[A-Za-z]\w*$/.test(name)) return undefined;
    specs.push({ name, keys: [attributeKey(name)], dir: s.startsWith('-') ? 'desc' : 'asc' });
  }
  return { specs, asked: sort === undefined ? 'sort absent (name)' : `sort=${sort}` };
}

/** Whether SRT-05 owns the first attribute of a Group P order: GET /file by one of the attributes only it names. */
const fileAttribute = (a: ListAnswer, specs: readonly OrderSpec[]): boolean => a.op === 'file.list' && FILE_SORT.has(specs[0]!.name);

/** The order message: which direction of which attribute the records break, with their values. */
const orderMessage = (broken: { name: string; dir: Direction; values: unknown[] }, asked: string): string =>
  `the items are not in ${broken.dir === 'asc' ? 'ascending' : 'descending'} order of ${broken.name} (${asked}): ${brief(broken.values, 12)}`;

/** The default Group L order, by name ascending: what a server that ignored sortby answers, and with sortorder ascending. */
const NAME: OrderSpec = { name: 'name', keys: LEGACY_KEYS.name!, dir: 'asc' };

/**
 * Whether a Group L answer could show `sortby` or `sortorder`: its records are not also in the order a
 * server that ignored the parameter would give (name, or ascending). Records in both orders show neither.
 */
function legacyShows(a: ListAnswer, parameter: string): boolean {
  const o = legacyOrder(a);
  if (!o) return false;
  // A usage list may take another sortby or fall back to name (open choice usage-sortby): its answer shows no sortby.
  if (parameter === 'sortby' && a.spec.paging === 'usage') return false;
  const ignored: OrderSpec = parameter === 'sortby' ? { ...NAME, dir: o.spec.dir } : { ...o.spec, dir: 'asc' };
  return brokenAttribute(a.records, [ignored]) !== undefined;
}

/** Whether a Group P answer could show `sort`: its records are not also in the default order by name. */
const pageShows = (a: ListAnswer): boolean => pageOrder(a) !== undefined && brokenAttribute(a.records, [NAME]) !== undefined;

/** A Group L (or usage) order rule under its requirement. */
function legacyOrderRule(requirement: string, sentence: string): Rule {
  return {
    requirement,
    check: 'order',
    sentence,
    parameters: ['sortby', 'sortorder'],
    shows: legacyShows,
    applies: (a) => legacyOrder(a)?.requirement === requirement,
    refute: (a) => {
      const o = legacyOrder(a)!;
      const broken = brokenAttribute(a.records, [o.spec]);
      return broken ? [orderMessage(broken, o.asked)] : [];
    },
  };
}

/**
 * The Group P order rules: SRT-05 judges GET /file's first attribute where it is one only SRT-05 names,
 * SRT-04 the rest (the default name order, and later attributes breaking ties of earlier ones).
 */
const PAGE_ORDER_RULES: readonly Rule[] = [
  {
    requirement: 'SRT-04',
    check: 'order',
    sentence:
      'Group P `sort` is a comma-separated list of attributes, each optionally prefixed `+` (ascending) or `-` (descending); default `name`; later attributes break ties of earlier ones.',
    parameters: ['sort'],
    shows: pageShows,
    applies: (a) => {
      const o = pageOrder(a);
      return o !== undefined && (o.specs.length > 1 || !fileAttribute(a, o.specs));
    },
    refute: (a) => {
      const o = pageOrder(a)!;
      const broken = brokenAttribute(a.records, o.specs);
      // A first attribute of SRT-05's out of order is SRT-05's finding.
      if (!broken || (broken.name === o.specs[0]!.name && fileAttribute(a, o.specs))) return [];
      return [orderMessage(broken, o.asked)];
    },
  },
  {
    requirement: 'SRT-05',
    check: 'order',
    sentence: 'GET /file sorts by id, name, niceUrl, alternateUrls, fileSize, fileType.',
    parameters: ['sort'],
    shows: pageShows,
    applies: (a) => {
      const o = pageOrder(a);
      return o !== undefined && fileAttribute(a, o.specs);
    },
    refute: (a) => {
      const o = pageOrder(a)!;
      const broken = brokenAttribute(a.records, o.specs.slice(0, 1));
      return broken ? [orderMessage(broken, o.asked)] : [];
    },
  },
];

/** The ordering rules, each under its requirement. */
export const ORDERING_RULES: readonly Rule[] = [
  legacyOrderRule('SRT-01', 'Group L default order is by name ascending.'),
  legacyOrderRule('SRT-02', 'Group L `sortorder=desc` reverses; any other `sortorder` string is ignored (ascending).'),
  legacyOrderRule(
    'SRT-03',
    'Group L `sortby` accepts name, cdate, edate, pdate, filename, template, folder, masterNode, priority, excluded, deletedat where the listed objects have that attribute.',
  ),
  legacyOrderRule('USE-03', 'sortorder, and sort by name, the one `sortby` value shown'),
  ...PAGE_ORDER_RULES,
];
