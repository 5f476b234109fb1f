/** The fixture's pages, as the getPages filter suites (page-filters, page-timedue) read and filter them. */
import { fetchList, mustList, type Listing, type Query } from '../../harness/lists.ts';
import type { Finding } from '../../harness/checks.ts';
import { PerRun, type ConformanceContext } from '../../harness/suite.ts';
import type { Page } from '../../schemas/types.ts';

/** The pages folder and its sub-folders: every getPages call of these suites lists them. */
export const BASE: Query = { recursive: true };

/** The unfiltered listing of the fixture's pages, read once per suite file (PerRun): the suites never change the fixture. */
const unfiltered = new PerRun<Promise<Listing<Page>>>();

/**
 * The fixture's pages, unfiltered, and a getPages call with more parameters; undefined, said as nothing
 * to judge, when the pages folder and its sub-folders hold no page.
 */
export async function pagesOf(
  t: ConformanceContext,
): Promise<{ pages: Page[]; unset: Listing<Page>; list: (query: Query) => Promise<Listing<Page> | Finding> } | undefined> {
  const folderId = t.fixture.pagesFolderId!;
  const unset = await unfiltered.retrying(() => mustList(t, 'folder.getPages', folderId, BASE));
  if (!unset.records.length) return void t.nothingToJudge('the pages folder and its sub-folders hold no page');
  return { pages: unset.records, unset, list: (query) => fetchList(t, 'folder.getPages', folderId, { ...BASE, ...query }) };
}

/** The values present, each once, in their first order. */
export const distinct = <T>(values: readonly (T | undefined)[]): T[] => [...new Set(values.filter((v): v is T => v !== undefined))];
