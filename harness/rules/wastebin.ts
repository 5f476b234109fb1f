/**
 * Wastebin rules one answer can refute (contract 4.1 Group F `wastebin`: exclude, the default,
 * include, only; section 3): the deletion marks of the listed records against the mode asked for.
 */
import { deletionMarked } from '../model.ts';
import { idsOf, isRecord, nested, type ListAnswer, type Rec, type Rule } from './answer.ts';

/** The deletion members a record carries, for messages. */
const marksOf = (r: Rec): string => ['deleted', 'folderDeleted', 'masterDeleted'].filter((m) => r[m] !== undefined).join('/');

/** The wastebin mode asked for (undefined when absent); null when the listing cannot show it or the parameter is given twice. */
function mode(a: ListAnswer): string | undefined | null {
  // Template records have no deletion members: a listing of them cannot show what wastebin did.
  if (!a.spec.parameters.has('wastebin') || a.op === 'folder.getTemplates') return null;
  return a.params.text('wastebin');
}

/** Records deleted themselves (not only inside a deleted folder): they carry `deleted` with a non-zero `at`. */
const ownDeleted = (a: ListAnswer): Rec[] =>
  a.records.filter((r) => isRecord(r.deleted) && typeof r.deleted.at === 'number' && r.deleted.at !== 0);

/** The wastebin rules, each under its requirement. */
export const WASTEBIN_RULES: readonly Rule[] = [
  {
    requirement: 'WST-01',
    check: 'wastebin',
    parameters: ['wastebin'],
    sentence: 'a deleted item is absent from every listing with `wastebin` absent or `exclude`.',
    applies: (a) => {
      const m = mode(a);
      return m === undefined || m === 'exclude';
    },
    refute: (a) => {
      const marked = a.records.filter((r) => deletionMarked(r));
      if (!marked.length) return [];
      return [
        `with wastebin ${mode(a) ?? 'absent'} deleted items must be left out, but ${idsOf(marked)} carry deletion marks (${[...new Set(marked.map(marksOf))].join(', ')})`,
      ];
    },
  },
  {
    requirement: 'WST-03',
    check: 'wastebin',
    parameters: ['wastebin'],
    sentence: '`wastebin=only` lists exactly the deleted items.',
    applies: (a) => mode(a) === 'only',
    refute: (a) => {
      const live = a.records.filter((r) => !deletionMarked(r));
      if (!live.length) return [];
      return [
        `wastebin=only must list only deleted items, but ${idsOf(live)} carry no deletion mark (deleted, folderDeleted or masterDeleted)`,
      ];
    },
  },
  {
    requirement: 'WST-02',
    check: 'deleteInfo',
    parameters: ['wastebin'],
    // "DeleteInfo: at (number), by (User)": which members a record carries is not shown (contract 2.1; open choice
    // deleted-by-carried), so `by` is judged where it is carried.
    sentence: 'deleted ones carry `deleted` with `at`',
    applies: (a) => {
      const m = mode(a);
      return (m === 'include' || m === 'only') && ownDeleted(a).length > 0;
    },
    refute: (a) => {
      const incomplete = ownDeleted(a).filter((r) => nested(r.deleted, 'by') !== undefined && !isRecord(nested(r.deleted, 'by')));
      if (!incomplete.length) return [];
      return [
        `deleted items carry deleted with at and, where they name who deleted them, a by User; ${idsOf(incomplete)} carry a by that is no User`,
      ];
    },
  },
];
