/**
 * The reading commands of the model-based tests (sequences.ts): list and count in every view, style and paging, each
 * answer compared with the model's.
 */
import { nothingToJudgeOnce } from '../../harness/steps.ts';
import type { ResponseOf } from '../../schemas/types.ts';
import { checkNo5xx, finding, isRefusal, type Finding } from '../../harness/checks.ts';
import {
  diffListing,
  isDeleted,
  listing,
  type ListingQuery,
  type Model,
  type ModelFolder,
  type ObjectKind,
  type ViewName,
  type WastebinMode,
} from '../../harness/model.ts';
import { legacySlice, pageSlice } from '../../harness/slices.ts';
import {
  type Real,
  divergeOn,
  stop,
  problemFindings,
  success,
  label,
  type ListStyle,
  listOperation,
  fetchListing,
  DELETED_BY_ID,
  Step,
  pick,
} from './runner.ts';

/** A listing's parameters: `first`/`size` are skipCount/maxItems (Group L) or page-1/pageSize (Group P). */
export interface ListParams {
  folder: number;
  kind: ObjectKind;
  style: ListStyle;
  view: ViewName;
  wastebin: WastebinMode;
  recursive: boolean;
  first: number;
  size: number;
}

/** Lists a model folder (a view, a wastebin mode, a style, a window) and compares the listing with the model. */
export class List extends Step<ListParams, ModelFolder> {
  protected targets(m: Model) {
    return pick(m.folders, this.p.folder);
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    const { kind, style, view, wastebin, recursive, first, size } = this.p;
    const q: ListingQuery = { folder: folder.key, kind, view, wastebin, recursive };
    const prediction = listing(m, q);
    const total = prediction.entries.length;
    // The window is resolved against the predicted total, so it mostly lands inside the list (and at most one step past it).
    const skip = first % (total + 2);
    const pageNo = 1 + (size > 0 ? first % (Math.ceil(total / size) + 1) : first);
    const paging: Record<string, number> = style === 'legacy' ? { skipCount: skip, maxItems: size } : { page: pageNo, pageSize: size };
    const paged = first !== 0 || size !== -1;
    const op = listOperation(kind, style);
    this.did = `list ${op} ${label(folder, prediction.folderId)} (${view}, wastebin=${wastebin}${recursive ? ', recursive' : ''}${
      paged
        ? `, ${Object.entries(paging)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')}`
        : ''
    })`;
    const full = await fetchListing(r, m, q, r.t.requirement, style);
    if (!full) return;
    // A recursive listing that differs without a rule of its own breaks FLT-06 "recursive=true includes objects of all sub-folders".
    const findings = problemFindings(
      diffListing(m, q, prediction, full.records),
      recursive ? 'FLT-06' : r.t.requirement,
      this.did,
      full.exchange,
    );
    // "numItems is the number of items matching the filters before paging"; unpaged, nothing lies beyond the list.
    if (full.numItems !== total)
      findings.push(finding('PAG-05', 'model', `${this.did}: numItems ${JSON.stringify(full.numItems)}, expected ${total}`, full.exchange));
    if (full.hasMoreItems !== false)
      findings.push(
        finding(
          style === 'legacy' ? 'PAG-06' : 'PAG-01',
          'model',
          `${this.did}: the unpaged listing answers hasMoreItems ${JSON.stringify(full.hasMoreItems)}, expected false`,
          full.exchange,
        ),
      );
    divergeOn(r, findings);
    if (!paged) return;
    const page = (await fetchListing(r, m, q, r.t.requirement, style, paging))!;
    const slice = style === 'legacy' ? legacySlice(total, skip, size) : pageSlice(total, pageNo, size);
    const want = full.records.slice(slice.start, slice.end).map((x) => x.id);
    const got = page.records.map((x) => x.id);
    const rule = style === 'legacy' ? 'PAG-07' : size === 0 ? 'PAG-02' : 'PAG-03';
    const checks: Finding[] = [];
    // PAG-07 "returns items s+1 .. s+m of the full ordered list"; PAG-03 "returns items (k-1)n+1 .. kn"
    if (JSON.stringify(got) !== JSON.stringify(want))
      checks.push(
        finding(
          rule,
          'model',
          `${this.did}: expected ids ${JSON.stringify(want)} ` +
            `(items ${slice.start + 1}..${slice.end} of the unpaged ${JSON.stringify(full.records.map((x) => x.id))}), ` +
            `got ${JSON.stringify(got)}`,
          page.exchange,
        ),
      );
    // PAG-05 "hasMoreItems is true exactly when items exist beyond the returned slice"
    if (page.numItems !== total)
      checks.push(
        finding(
          'PAG-05',
          'model',
          `${this.did}: numItems ${JSON.stringify(page.numItems)}, expected ${total} (before paging)`,
          page.exchange,
        ),
      );
    if (page.hasMoreItems !== slice.hasMoreItems)
      checks.push(
        finding(
          'PAG-05',
          'model',
          `${this.did}: hasMoreItems ${JSON.stringify(page.hasMoreItems)}, ` +
            `expected ${slice.hasMoreItems} (${total - slice.end} items beyond the slice)`,
          page.exchange,
        ),
      );
    divergeOn(r, checks);
  }
}

/** Counts a model folder's objects and compares the counts with the model. */
export class Count extends Step<{ folder: number; view: ViewName; wastebin: WastebinMode; recursive: boolean }, ModelFolder> {
  protected targets(m: Model) {
    return pick(m.folders, this.p.folder);
  }

  protected async act(m: Model, r: Real, folder: ModelFolder) {
    const { view, wastebin, recursive } = this.p;
    const q = (kind: ObjectKind, mode = wastebin): ListingQuery => ({ folder: folder.key, kind, view, wastebin: mode, recursive });
    const folders = listing(m, q('folder'));
    const files = listing(m, q('file'));
    this.did = `count ${label(folder, folders.folderId)} (${view}, wastebin=${wastebin}${recursive ? ', recursive' : ''})`;
    const query = {
      ...(view === 'channel' ? { nodeId: r.channel } : {}),
      ...(wastebin === 'exclude' ? {} : { wastebin }),
      ...(recursive ? { recursive } : {}),
    };
    const { exchange } = await r.t.try('folder.count', { path: { id: folders.folderId }, query });
    const counted = (body: ResponseOf['folder.count']) => `folders ${JSON.stringify(body.folders)}, files ${JSON.stringify(body.files)}`;
    if (!folders.listable) {
      divergeOn(r, checkNo5xx(exchange, r.t.requirement));
      const body = exchange.response?.json as ResponseOf['folder.count'] | undefined;
      if (isRefusal(exchange) || !body || (!body.folders && !body.files)) return;
      const rule = folders.unlistable === 'deleted' ? 'WST-04' : 'MCH-06';
      stop(
        r,
        rule,
        `${this.did}: the folder is ${folders.unlistable === 'deleted' ? 'deleted' : 'not visible in the channel'}, ` +
          `so a refusal or zero counts were expected, got ${counted(body)}`,
        exchange,
      );
    }
    if (isRefusal(exchange) && isDeleted(m, folder)) {
      divergeOn(r, checkNo5xx(exchange, r.t.requirement));
      return nothingToJudgeOnce(r.t, DELETED_BY_ID, exchange);
    }
    const body = success<'folder.count'>(r, exchange, 'FLD-06', this.did);
    // The model's counts differ between views, wastebin modes and depths.
    r.t.judged('folder.count', 'nodeId', 'wastebin', 'recursive');
    if (body.folders === folders.entries.length && body.files === files.entries.length) return;
    // FLD-06 "count reports folders, ..., files of the folder, matching what the listings return"; WST-04 leaves deleted items out
    const withDeleted =
      body.folders === listing(m, q('folder', 'include')).entries.length && body.files === listing(m, q('file', 'include')).entries.length;
    const rule = wastebin !== 'exclude' ? 'WST-04a' : withDeleted ? 'WST-04' : 'FLD-06';
    stop(
      r,
      rule,
      `${this.did}: expected folders ${folders.entries.length}, files ${files.entries.length} as the model lists them, ` +
        `got ${counted(body)}`,
      exchange,
    );
  }
}
