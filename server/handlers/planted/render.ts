/**
 * The planted faults and variations of record rendering (server/handlers/render.ts), one plan per renderer.
 *
 * A renderer asks for its plan (`const plan = planted.render(ctx.faults).page`) and consults it at named points of
 * the contract's code: a hook takes the value the contract computed there and returns the one the renderer goes on
 * with. With every switch off each hook gives back what it was given and does nothing else, so render.ts reads as
 * the contract, and this file, which only ever differs from the contract, is left out of the mutation run
 * (scripts/mutation). Rendering runs once per record, so the plans of a switch set are made once and kept
 * (`render`), and no hook allocates unless a switch it asks is on.
 */
import type { DeleteMark, FolderObj, Obj, PageObj, State, View } from '../../state.ts';
import type { FaultSet } from '../../types.ts';
import type { Folder as FolderRecord, Page as PageRecord, TemplateTag, User } from '../../../schemas/types.ts';
import { FOLDER_PRIVILEGES } from '../../dataset-format.ts';

/** The hooks of the deletion members (deleteInfo, itemRecord). */
export interface DeletionPlan {
  /** The deleting user a DeleteInfo names. */
  deletedBy(by: User | undefined): User | undefined;
  /** The object's own deletion mark as its record shows it, given its master's. */
  deleted(mark: DeleteMark | undefined, master: DeleteMark | undefined): DeleteMark | undefined;
  /** The deletion of a copy's master as its record shows it. */
  masterDeleted(master: DeleteMark | undefined): DeleteMark | undefined;
  /** The nearest deletion above the object as its record shows it. */
  folderDeleted(above: DeleteMark | undefined, obj: Obj): DeleteMark | undefined;
}

/** The hooks of the multichannelling members (addChannelFields). */
export interface ChannelPlan {
  /** The node whose name inheritedFrom gives; the contract: the object's own. */
  inheritedFrom(nodeId: number, view: View): number;
  /** Whether the record says inherited. */
  inherited(inherited: boolean, obj: Obj): boolean;
  /** The disinherited channels the record names. */
  disinheritedChannels(channels: readonly number[]): readonly number[];
  /** Whether the record says excluded. */
  excluded(excluded: boolean): boolean;
}

/** The hooks of the folder record (folderRecord). */
export interface FolderPlan {
  /** The options as the renderer reads them. */
  options<O extends { privileges?: boolean; privilegeMap?: boolean }>(o: O): O;
  /** The folder motherId names; `chain` is the folder's chain from its root. */
  mother(mother: FolderObj, chain: readonly FolderObj[]): FolderObj;
  /** The finished record as answered, rendered with the options `o` (as `options` gave them). */
  record(record: FolderRecord, o: { privileges?: boolean }): FolderRecord;
}

/** The hooks shared by file and page records. */
export interface UrlPlan {
  /** The alternateUrls as answered: `sorted` the contract's order, `stored` the object's own. */
  alternateUrls(sorted: string[], stored: readonly string[]): string[];
}

/** The hooks of the template record (templateRecord). */
export interface TemplatePlan {
  /** The template tags as answered. */
  templateTags(tags: Record<string, TemplateTag>): Record<string, TemplateTag>;
}

/** The hooks of the page record (pageRecord, pageFlags, versions). */
export interface PagePlan extends UrlPlan {
  /** Whether the page is queued. */
  queued(queued: boolean): boolean;
  /** Whether the page is planned. */
  planned(planned: boolean): boolean;
  /** Whether an edit made a new version. */
  edited(edited: boolean): boolean;
  /** The time management the record shows. */
  timeManagement(tm: PageObj['timeManagement']): PageObj['timeManagement'];
  /** The language the record names. */
  language(lang: State['languages'][number] | undefined): State['languages'][number] | undefined;
  /** How a page variant or language variant is rendered inside the record; the contract: `render`. */
  variant(render: (s: PageObj) => PageRecord): (s: PageObj) => PageRecord;
  /** The page's path. */
  path(path: string): string;
  /** Whether the record says readOnly. */
  readOnly(readOnly: boolean): boolean;
  /** The key of a language variant; the contract: its language `code`. */
  languageVariantKey(code: string, state: State): string;
  /** The record's lockedSince; `locked` whether the page is locked. */
  lockedSince(since: number, locked: boolean): number;
  /** Whether the record says master. */
  master(master: boolean): boolean;
  /** The finished record as answered. */
  record(record: PageRecord): PageRecord;
}

/** Every renderer's plan. */
export interface RenderPlan {
  deletion: DeletionPlan;
  channel: ChannelPlan;
  folder: FolderPlan;
  file: UrlPlan;
  template: TemplatePlan;
  page: PagePlan;
}

/** No channel named: what disinheritedChannels gives when a variation names none. */
const NONE: readonly number[] = [];

function deletion(faults: FaultSet): DeletionPlan {
  return {
    deletedBy: (by) => {
      // Variation deleted-without-by: the deleting user is not disclosed (contract 2.1: which members a record carries, not shown).
      if (faults.has('deleted-without-by')) return undefined;
      // Planted: only wastebin listings show deleted items, so the sweep rarely meets this user record.
      if (by && faults.has('shape-wastebin-deleted-by')) (by as Record<string, unknown>).id = String(by.id);
      return by;
    },
    // Planted (master-deletion-unmarked): a copy whose master was deleted carries no deletion information at all.
    deleted: (mark, master) => (master !== undefined && faults.has('master-deletion-unmarked') ? undefined : mark),
    masterDeleted: (master) =>
      // Variation (copy-marked-deleted): a copy whose master was deleted says so by its own `deleted` alone (contract 3:
      // "deleted (a deleted, masterDeleted or folderDeleted DeleteInfo is present)").
      faults.has('copy-marked-deleted') || faults.has('master-deletion-unmarked') ? undefined : master,
    folderDeleted: (above, obj) => {
      // Variation content-marked-deleted-only: what lies in a deleted folder shows its own deleted mark alone, no folderDeleted;
      // content a data set gives no mark of its own (a folder deleted by another server) keeps folderDeleted, or it would show none.
      if (faults.has('content-marked-deleted-only') && obj.deleted !== undefined) return undefined;
      // Planted (folder-deleted-on-self): a deleted folder's own deletion is taken for that of the folder containing it.
      return above ?? (faults.has('folder-deleted-on-self') && obj.kind === 'folder' ? obj.deleted : undefined);
    },
  };
}

function channel(faults: FaultSet): ChannelPlan {
  return {
    // Planted (inherited-from-names-channel): inheritedFrom names the channel the object is seen from.
    inheritedFrom: (nodeId, view) => (faults.has('inherited-from-names-channel') ? view.nodeId : nodeId),
    // Variation (localized-copy-inherited-true): a localized copy, which still has a master, says inherited true.
    inherited: (inherited, obj) => inherited || (faults.has('localized-copy-inherited-true') && obj.masterId !== undefined),
    // Variation (disinherited-channels-omitted): the record says disinherited, without naming the channels.
    disinheritedChannels: (channels) => (faults.has('disinherited-channels-omitted') ? NONE : channels),
    // Planted (record-excluded-unread): records never say excluded.
    excluded: (excluded) => !faults.has('record-excluded-unread') && excluded,
  };
}

function folder(faults: FaultSet): FolderPlan {
  return {
    // Variation (privileges-as-map): whichever flag asks, the privileges come as the privilege map.
    options: (o) => (o.privileges && faults.has('privileges-as-map') ? { ...o, privileges: false, privilegeMap: true } : o),
    // Planted (folder-motherid-grandparent): the parent's parent is named, an off-by-one in the chain.
    mother: (mother, chain) => (faults.has('folder-motherid-grandparent') ? (chain[chain.length - 3] ?? mother) : mother),
    record: (record, o) => {
      // Planted (folder-id-as-string): the id comes as a string.
      if (faults.has('folder-id-as-string')) (record as Record<string, unknown>).id = String(record.id);
      // Planted (shape-folder-privilegebits): privilegeBits comes as a number, every bit set.
      if (o.privileges && faults.has('shape-folder-privilegebits'))
        (record as Record<string, unknown>).privilegeBits = 2 ** FOLDER_PRIVILEGES.length - 1;
      return record;
    },
  };
}

function urls(faults: FaultSet): UrlPlan {
  return {
    alternateUrls: (sorted, stored) => {
      // Planted (alternateurls-reversed): the alternate URLs come in the reverse of their stored order.
      if (faults.has('alternateurls-reversed')) return [...stored].reverse();
      // Planted (alternateurls-unsorted): the alternate URLs come in their stored order, unsorted.
      return faults.has('alternateurls-unsorted') ? [...stored] : sorted;
    },
  };
}

function template(faults: FaultSet): TemplatePlan {
  return {
    templateTags: (tags) => {
      // Variation (template-tags-without-flags): the editor's unset Booleans are null, and null members are left out.
      if (faults.has('template-tags-without-flags'))
        return Object.fromEntries(Object.entries(tags).map(([k, { mandatory: _m, editableInPage: _e, ...tag }]) => [k, tag]));
      // Planted (template-tag-flags-as-text): the flags are passed on as the editor's form values, the strings "true" and "false".
      if (faults.has('template-tag-flags-as-text'))
        for (const tag of Object.values(tags))
          for (const flag of ['mandatory', 'editableInPage'] as const)
            if (tag[flag] !== undefined) Object.assign(tag, { [flag]: String(tag[flag]) });
      return tags;
    },
  };
}

/**
 * Planted shape faults of the getPages add-ons: each misshapes a member only a parameter adds
 * (langvars, contenttags, template), which the semantic tests send and the sweep seldom does.
 */
function misshapeAddOns(record: PageRecord, faults: FaultSet): void {
  if (faults.has('shape-getpages-langvars')) {
    for (const v of Object.values(record.languageVariants ?? {}))
      Object.assign(v, { folderId: String(v.folderId), templateId: String(v.templateId) });
  }
  if (faults.has('shape-getpages-contenttags')) {
    for (const tag of Object.values(record.tags ?? {})) if (tag.type === 'CONTENTTAG') Object.assign(tag, { active: tag.active ? 1 : 0 });
  }
  if (faults.has('shape-getpages-template') && record.template) {
    const { cdate, edate } = record.template;
    Object.assign(record.template, {
      cdate: new Date((cdate ?? 0) * 1000).toISOString(),
      edate: new Date((edate ?? 0) * 1000).toISOString(),
    });
  }
}

function page(faults: FaultSet): PagePlan {
  return {
    ...urls(faults),
    // Planted: a flag read with the wrong sense, in the record and the filter alike.
    queued: (queued) => (faults.has('page-queued-inverted') ? !queued : queued),
    planned: (planned) => (faults.has('page-planned-inverted') ? !planned : planned),
    // Planted (page-version-never-advances): edits never make a new version.
    edited: (edited) => !faults.has('page-version-never-advances') && edited,
    // Planted (time-management-blank): the time management is rendered without its times and requests.
    timeManagement: (tm) => (faults.has('time-management-blank') ? undefined : tm),
    // Planted (page-language-missing): the record names no language.
    language: (lang) => (faults.has('page-language-missing') ? undefined : lang),
    // Planted (page-variants-summary): variants go through the short serialiser of list previews, not the page one.
    variant: (render) =>
      faults.has('page-variants-summary')
        ? (s) => ({ id: s.id, name: s.name, fileName: s.fileName, ...(s.language ? { language: s.language } : {}) }) as PageRecord
        : render,
    // Planted (page-path-of-mother): the path of the folder's mother, one folder short.
    path: (path) => (faults.has('page-path-of-mother') ? path.replace(/[^/]+\/$/, '') : path),
    // Planted (page-fetched-for-edit): the page is read as fetched for editing, so not read-only.
    readOnly: (readOnly) => !faults.has('page-fetched-for-edit') && readOnly,
    // Variation (language-variants-by-id): keyed by the id of the variant's language, not its code.
    languageVariantKey: (code, state) =>
      faults.has('language-variants-by-id') ? String(state.languages.find((l) => l.code === code)?.id ?? code) : code,
    // Planted (lockedsince-zero-when-unlocked): an unlocked page says lockedSince 0, not -1.
    lockedSince: (since, locked) => (!locked && faults.has('lockedsince-zero-when-unlocked') ? 0 : since),
    // Planted (page-master-inverted): master read with the wrong sense.
    master: (master) => (faults.has('page-master-inverted') ? !master : master),
    record: (record) => {
      // Planted (page-drops-readonly): the record leaves readOnly out.
      if (faults.has('page-drops-readonly')) delete (record as Partial<PageRecord>).readOnly;
      // Planted (translation-status-never): no record carries a translation status, whatever translationstatus or insync ask.
      if (faults.has('translation-status-never')) delete record.translationStatus;
      misshapeAddOns(record, faults);
      return record;
    },
  };
}

/** The plans of each switch set, made once: a server keeps one set for its life. */
const plans = new WeakMap<FaultSet, RenderPlan>();
/** The set asked last and its plans: the records of a request all ask with one set, so a comparison finds it. */
let lastFaults: FaultSet | undefined;
let lastPlan: RenderPlan | undefined;

/** The rendering plans of a switch set (made once per set). */
export function render(faults: FaultSet): RenderPlan {
  if (faults === lastFaults) return lastPlan!;
  let plan = plans.get(faults);
  if (!plan) {
    plan = {
      deletion: deletion(faults),
      channel: channel(faults),
      folder: folder(faults),
      file: urls(faults),
      template: template(faults),
      page: page(faults),
    };
    plans.set(faults, plan);
  }
  lastFaults = faults;
  lastPlan = plan;
  return plan;
}
