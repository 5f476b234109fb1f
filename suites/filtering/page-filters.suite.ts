/**
 * The getPages filters (FLT-09) on the fixture's pages folder (with its sub-folders): the target's own
 * pages, judged by relations. A flag filter and its negation partition the pages and agree with the
 * page records; value filters list exactly the pages whose records carry the value; date and time
 * filters respect their bounds; permissions only ever remove pages.
 */
import fc from 'fast-check';
import { finding, type Finding } from '../../harness/checks.ts';
import {
  boundFindings,
  described,
  expectIncludes,
  expectSet,
  expectSubset,
  fetchList,
  idsWhere,
  isListing,
  judged,
  mustList,
  partitionFindings,
  type Listing,
  type Query,
} from '../../harness/lists.ts';
import { brief, partOf } from '../../harness/oracles.ts';
import { listOf, mapOf, text } from '../../harness/records.ts';
import { requestingUserStep } from '../../harness/steps.ts';
import { getOperation } from '../../schemas/operations.ts';
import { hasFeature } from '../../harness/fixture.ts';
import { PerRun, conformance, unseen, type ConformanceContext } from '../../harness/suite.ts';
import type { Page } from '../../schemas/types.ts';
import { BASE, distinct, pagesOf } from './pages-of.ts';
import { termMatches, userTexts } from './terms.ts';

conformance(
  'FLT-08',
  'getPages niceurl is a regular expression matched against the nice URL of each page',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const urls = distinct(pages.map((p) => p.niceUrl)).filter((u) => u.length > 1);
    if (!urls.length) return t.nothingToJudge('no page of the pages folder has a nice URL');
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Each nice URL whole, one as a prefix pattern, and one alternation: anchored, so that matching the whole URL and finding a
    // match in it agree.
    const patterns = [
      ...urls.slice(0, 3).map((u) => `^${escape(u)}$`),
      `^${escape(urls[0]!.slice(0, 2))}.*$`,
      ...(urls.length > 1 ? [`^(${escape(urls[0]!)}|${escape(urls[1]!)})$`] : []),
    ];
    // "niceurl | string | | regular expression": the pages whose nice URL matches, and perhaps those an alternate URL of which
    // matches (open choice niceurl-alternates); a page without a nice URL or alternate URLs matches none.
    const judge = async (niceurl: string, why: string) => {
      const re = new RegExp(niceurl);
      const l = await list({ niceurl });
      if (!isListing(l)) return void t.record([l]);
      const byNiceUrl = idsWhere(pages, (p) => text(p, 'niceUrl') !== '' && re.test(text(p, 'niceUrl')));
      const byAny = idsWhere(pages, (p) => byNiceUrl.includes(p.id!) || listOf<string>(p, 'alternateUrls').some((u) => re.test(u)));
      t.record([
        ...expectIncludes('FLT-08', 'regex', byNiceUrl, l, `getPages niceurl=${niceurl} must list the pages whose nice URL matches it`),
        ...expectSubset('FLT-08', 'regex', byAny, l, `getPages niceurl=${niceurl} must list only pages ${why}`),
      ]);
    };
    for (const niceurl of patterns) await judge(niceurl, 'a nice or alternate URL of which matches it');
    // A page without a nice URL has nothing to match, though a server that tests it as the text "undefined" or "null" finds an n.
    // Anchored, as every pattern here: finding a match and matching the whole URL agree (open choice niceurl-match).
    if (pages.some((p) => text(p, 'niceUrl') === '')) await judge('^.*n.*$', 'whose nice or alternate URL holds an n, no page without one');
    t.judged('folder.getPages', 'niceurl');
  },
  { feature: 'pages', operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'online, modified, planned and queued each partition the pages and agree with the page flags',
  async (t) => {
    const folderId = t.fixture.pagesFolderId!;
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { unset } = fixture;
    for (const flag of ['online', 'modified', 'planned', 'queued'] as const) {
      const yes = await mustList(t, 'folder.getPages', folderId, { ...BASE, [flag]: true });
      const no = await mustList(t, 'folder.getPages', folderId, { ...BASE, [flag]: false });
      // "online (boolean, unset): restrict to online / offline", likewise modified, planned, queued. That a
      // listed page's own flag agrees is one answer's rule, the registry's; the partition takes three answers.
      t.record(partitionFindings('FLT-09', flag, unset, yes, no));
    }
    t.expectRuled('FLT-09');
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'queued and planned restrict by what the time management of each page shows',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    // A filter that agrees with flags the server computes the wrong way round agrees with the records: the time management they
    // show is what tells. Contract 2.6: "queued: in queue for publishing or taking offline", which TimeManagement shows as
    // "queuedPublish and queuedOffline"; "planned: time management is set", a time to publish (`at`) or take offline (`offlineAt`).
    const shown = pages.filter((p) => p.timeManagement !== undefined);
    const waiting = idsWhere(shown, (p) => p.timeManagement!.queuedPublish !== undefined || p.timeManagement!.queuedOffline !== undefined);
    const timed = idsWhere(shown, (p) => (p.timeManagement!.at ?? 0) > 0 || (p.timeManagement!.offlineAt ?? 0) > 0);
    // A page whose time management shows nothing set at all: no time, no request.
    const unset = idsWhere(shown, (p) => !waiting.includes(p.id!) && !timed.includes(p.id!));
    if (!waiting.length && !timed.length)
      return t.nothingToJudge('no page record of the pages folder shows a queued request or a time in its time management');
    const all = pages.map((p) => p.id!);
    const cases = [
      { flag: 'queued', what: 'a queued publish or take-offline request', set: waiting, none: [] as number[] },
      { flag: 'planned', what: 'a time to publish or take offline', set: timed, none: unset },
    ];
    for (const { flag, what, set, none } of cases) {
      const yes = await list({ [flag]: true });
      const no = await list({ [flag]: false });
      if (!isListing(yes)) return void t.record([yes]);
      if (!isListing(no)) return void t.record([no]);
      const not = (ids: readonly number[]) => all.filter((id) => !ids.includes(id));
      t.record([
        ...expectIncludes('FLT-09', flag, set, yes, `${flag}=true must list every page whose time management shows ${what}`),
        ...expectSubset('FLT-09', flag, not(set), no, `${flag}=false must list no page whose time management shows ${what}`),
        ...expectIncludes('FLT-09', flag, none, no, `${flag}=false must list every page whose time management shows nothing set`),
        ...expectSubset('FLT-09', flag, not(none), yes, `${flag}=true must list no page whose time management shows nothing set`),
      ]);
    }
    t.judged('folder.getPages', 'queued', 'planned');
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'insync lists the pages in or out of sync with their translation masters and adds their translation status',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const statuses = await fixture.list({ translationstatus: true });
    if (!isListing(statuses)) return void t.record([statuses]);
    // The translations, as translationstatus (FLD-09's add-on) shows them.
    const inSync = new Map<number, boolean>();
    for (const p of statuses.records) if (typeof p.translationStatus?.inSync === 'boolean') inSync.set(p.id!, p.translationStatus.inSync);
    const listed: Listing<Page>[] = [];
    for (const insync of [true, false]) {
      const l = await fixture.list({ insync });
      if (!isListing(l)) return void t.record([l]);
      listed.push(l);
    }
    // Under either answer of insync-untranslated, one of the two values lists translations only (the pages that are no
    // translation all go under the other): when both list pages, that one's pages have a status to add, and "Setting it adds
    // translation status". None anywhere, and none from translationstatus=true, says the status is never given.
    const [yes, no] = listed as [Listing<Page>, Listing<Page>];
    const shown = (l: Listing<Page>) => l.records.some((p) => p.translationStatus !== undefined);
    if (yes.records.length && no.records.length && !shown(yes) && !shown(no) && !shown(statuses))
      t.record([
        finding(
          'FLT-09',
          'insync',
          `insync=true lists ${brief(yes.records.map((p) => p.id))} and insync=false ${brief(no.records.map((p) => p.id))}: one of them ` +
            `holds translations only (whichever value the pages that are no translation fall under), yet no page of either, nor of ` +
            `translationstatus=true, carries a translation status; "Setting it adds translation status"`,
          no.exchange,
        ),
      ]);
    if (!inSync.size) return t.nothingToJudge('no page of the pages folder carries a translation status');
    for (const [i, insync] of [true, false].entries()) {
      const l = listed[i]!;
      // getPages: "insync (boolean): true: only pages in sync with their translation masters; false: only not in sync". That no
      // listed page's status says the opposite is one answer's rule, the registry's; a page that is no translation may go either way.
      const expected = [...inSync].filter(([, s]) => s === insync).map(([id]) => id);
      t.record(
        expectIncludes(
          'FLT-09',
          'insync',
          expected,
          l,
          `insync=${insync} must list every page ${insync ? '' : 'not '}in sync with its translation master`,
        ),
      );
      // "Setting it adds translation status."
      const bare = l.records.filter((p) => inSync.has(p.id!) && p.translationStatus === undefined);
      if (bare.length)
        t.record([
          finding(
            'FLT-09',
            'insync',
            `insync=${insync} lists ${brief(bare.map((p) => p.id))} without the translation status translationstatus=true gives them; ` +
              `"Setting it adds translation status" (${described(l.exchange)})`,
            l.exchange,
          ),
        ]);
    }
    // "true: only pages in sync ...; false: only not in sync; unset: ignore": false lists the complement of true, so every page
    // is listed under exactly one value; which one a page that is no translation falls under is open (insync-untranslated).
    t.record(partitionFindings('FLT-09', 'insync', fixture.unset, listed[0]!, listed[1]!, 'unset: ignore'));
    t.judged('folder.getPages', 'insync');
    t.expectRuled('FLT-09');
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'ispublisher lists exactly the pages the requesting user published last',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const me = await requestingUserStep(t);
    if (me === undefined) return;
    const { pages, list } = fixture;
    // A page without a publisher is nobody's; pages all the requesting user's, or all another's, tell nothing apart.
    const published = pages.filter((p) => p.publisher?.id !== undefined);
    if (!published.some((p) => p.publisher!.id === me) && !published.some((p) => p.publisher!.id !== me))
      return t.nothingToJudge('no page of the pages folder names its publisher');
    // getPages: "ispublisher (boolean, false): only pages last published by the user".
    t.judged('folder.getPages', 'ispublisher');
    t.record(
      await judged(list({ ispublisher: true }), (l) =>
        expectSet(
          'FLT-09',
          'ispublisher',
          idsWhere(pages, (p) => p.publisher?.id === me),
          l,
          `ispublisher=true must list exactly the pages the requesting user (${me}) published last`,
        ),
      ),
    );
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'publisher and publisherId list exactly the pages of the given publishers',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const publishers = [
      ...new Map(pages.flatMap((p) => (p.publisher?.id !== undefined ? [[p.publisher.id, p.publisher] as const] : []))).values(),
    ];
    // The pages of one publisher, and every page, cannot tell a filter from none.
    if (publishers.length < 2) return t.nothingToJudge('the pages of the pages folder name fewer than two publishers');
    const by = (ids: readonly number[]) => idsWhere(pages, (p) => p.publisher?.id !== undefined && ids.includes(p.publisher.id));
    for (const ids of [...publishers.map((u) => [u.id!]), publishers.slice(0, 2).map((u) => u.id!)]) {
      // getPages: "publisherId (int, multivalued): publisher IDs".
      t.record(
        await judged(list({ publisherId: ids }), (l) =>
          expectSet('FLT-09', 'publisherId', by(ids), l, `publisherId=${ids.join(',')} must list exactly the pages those users published`),
        ),
      );
    }
    for (const user of publishers) {
      // getPages: "publisher (string): pattern"; which texts of a user it is matched against is not shown (open choice
      // user-pattern): a publisher's login finds them, and only users it is part of.
      const pattern = text(user, 'login');
      if (!pattern) {
        t.nothingToJudge(`the publisher ${user.id} shows no login to search for`);
        continue;
      }
      const may = idsWhere(pages, (p) => userTexts(p.publisher).some((s) => s.includes(pattern.toLowerCase())));
      const must = idsWhere(pages, (p) => text(p.publisher, 'login').toLowerCase().includes(pattern.toLowerCase()));
      t.record(
        await judged(list({ publisher: pattern }), (l) => [
          ...expectIncludes(
            'FLT-09',
            'publisher',
            must,
            l,
            `publisher=${pattern} must list the pages of the publishers whose login holds ${pattern}`,
          ),
          ...expectSubset('FLT-09', 'publisher', may, l, `publisher=${pattern} must only list pages whose publisher matches the pattern`),
        ]),
      );
    }
    t.judged('folder.getPages', 'publisher', 'publisherId');
    t.expectRuled('FLT-09');
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'includeMlId and excludeMlId keep or drop the pages by the markup language of their template',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const withTemplates = await list({ template: true });
    if (!isListing(withTemplates)) return void t.record([withTemplates]);
    // The markup language of each page's template, as template=true (FLD-09's add-on) shows it; other pages are not judged.
    const ml = new Map<number, number>();
    for (const p of withTemplates.records)
      if (typeof p.template?.markupLanguage?.id === 'number') ml.set(p.id!, p.template.markupLanguage.id);
    const languages = distinct([...ml.values()]);
    if (languages.length < 2)
      return t.nothingToJudge('the templates of the pages of the pages folder show fewer than two markup languages');
    const of = (id: number) => idsWhere(pages, (p) => ml.get(p.id!) === id);
    const notOf = (id: number) => idsWhere(pages, (p) => ml.get(p.id!) !== id);
    for (const id of languages) {
      // getPages: "includeMlId (int, multivalued): only pages whose template has one of these markup-language IDs".
      t.record(
        await judged(list({ includeMlId: [id] }), (l) => [
          ...expectIncludes(
            'FLT-09',
            'includeMlId',
            of(id),
            l,
            `includeMlId=${id} must list every page whose template has markup language ${id}`,
          ),
          ...expectSubset(
            'FLT-09',
            'includeMlId',
            [...of(id), ...idsWhere(pages, (p) => !ml.has(p.id!))],
            l,
            `includeMlId=${id} must list only pages whose template has markup language ${id}`,
          ),
        ]),
      );
      // "excludeMlId (int, multivalued): exclude pages whose template has any of these markup-language IDs".
      t.record(
        await judged(list({ excludeMlId: [id] }), (l) => [
          ...expectIncludes(
            'FLT-09',
            'excludeMlId',
            idsWhere(pages, (p) => ml.has(p.id!) && ml.get(p.id!) !== id),
            l,
            `excludeMlId=${id} must keep every page whose template has another markup language`,
          ),
          ...expectSubset(
            'FLT-09',
            'excludeMlId',
            notOf(id),
            l,
            `excludeMlId=${id} must drop every page whose template has markup language ${id}`,
          ),
        ]),
      );
    }
    t.judged('folder.getPages', 'includeMlId', 'excludeMlId');
  },
  { operation: 'folder.getPages' },
);

/** The text of a page's content tags (contract 2.8: tags of type CONTENTTAG): the string values of their properties, lower-cased. */
function contentText(p: Page): string {
  return Object.values(p.tags ?? {})
    .filter((tag) => tag.type === 'CONTENTTAG')
    .flatMap((tag) => Object.values(tag.properties ?? {}).flatMap((v) => [v.stringValue ?? '', ...(v.stringValues ?? [])]))
    .join('\n')
    .toLowerCase();
}

conformance(
  'FLT-09',
  'searchcontent also finds the pages whose content holds the search term',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const tagged = await list({ contenttags: true });
    if (!isListing(tagged)) return void t.record([tagged]);
    const content = new Map(tagged.records.map((p) => [p.id!, contentText(p)]));
    // A word of the content that no page's id, name or description holds: only searching the content finds it.
    const words = distinct([...content.values()].flatMap((text) => text.match(/[a-z]{5,}/g) ?? [])).sort();
    const term = words.find((w) => pages.every((p) => !termMatches(p, w)));
    if (!term) return t.nothingToJudge("no word of the pages' content is missing from every page's name and description");
    const holders = idsWhere(pages, (p) => content.get(p.id!)?.includes(term) ?? false);
    // getPages: "searchcontent (boolean, false): also search content", beside Group L's "search (string; matches ID, or partial
    // name or description)".
    t.record(
      await judged(list({ search: term, searchcontent: true }), (l) => [
        ...expectIncludes(
          'FLT-09',
          'searchcontent',
          holders,
          l,
          `search=${term}&searchcontent=true must list every page whose content holds ${term}`,
        ),
        ...expectSubset(
          'FLT-09',
          'searchcontent',
          [...holders, ...idsWhere(pages, (p) => termMatches(p, term))],
          l,
          `search=${term}&searchcontent=true must list only pages whose id, name, description or content holds ${term}`,
        ),
      ]),
    );
    // Without it ("false" by default) the content is not searched: no page holds the term in its id, name or description.
    t.record(
      await judged(list({ search: term }), (l) =>
        expectSubset(
          'FLT-09',
          'searchcontent',
          [],
          l,
          `search=${term} without searchcontent must not search the content: no page's id, name or description holds ${term}`,
        ),
      ),
    );
    t.judged('folder.getPages', 'searchcontent');
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'wfown and wfwatch list only pages in a workflow',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    // An answer that shows no page's workflow cannot tell which pages are in one; one that shows some shows the rest in none. A
    // workflow member says a page is in one where it names a user or groups: an empty one may be written for every page.
    const inOne = (p: Page) => mapOf(p, 'workflow').user !== undefined || listOf(p.workflow, 'groups').length > 0;
    const shownIn = (records: readonly Page[]) => (records.some(inOne) ? idsWhere(records, inOne) : undefined);
    const known = shownIn(fixture.pages);
    let shown = false;
    for (const flag of ['wfown', 'wfwatch'] as const) {
      const l = await fixture.list({ [flag]: true });
      if (!isListing(l)) return void t.record([l]);
      // getPages: "wfown (boolean, false): pages owned by the user in a workflow", "wfwatch (boolean, false): pages watched by the
      // user in a workflow": a page shown in no workflow, by this answer or by the unfiltered list, is neither.
      for (const [inWorkflow, where] of [
        [shownIn(l.records), 'this answer'],
        [known, 'the list without it'],
      ] as const) {
        if (!inWorkflow) continue;
        shown = true;
        t.judged('folder.getPages', flag);
        t.record(expectSubset('FLT-09', flag, inWorkflow, l, `${flag}=true must list only pages in a workflow (as ${where} shows them)`));
      }
    }
    if (!shown) return t.nothingToJudge('no page listed with or without wfown or wfwatch shows its workflow');
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'template_id lists exactly the pages of the given templates',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const templates = distinct(pages.map((p) => p.templateId));
    if (!templates.length) return t.nothingToJudge('no page of the pages folder names its template');
    await t.property(
      fc.uniqueArray(fc.constantFrom(...templates), { minLength: 1, maxLength: 2 }),
      async (ids) =>
        // "template_id (int, multivalued): template IDs"
        judged(list({ template_id: ids }), (l) =>
          expectSet(
            'FLT-09',
            'template_id',
            idsWhere(pages, (p) => ids.includes(p.templateId!)),
            l,
            `template_id=${ids.join(',')} must list exactly the pages of those templates`,
          ),
        ),
      { novel: unseen() },
    );
    // In the channel, pages may name the channel's own copy of a template (a localized template): template_id takes
    // the ids the channel's records carry as well.
    const channel = hasFeature(t, 'multichannelling') ? t.fixture.channelNodeId : undefined;
    if (channel === undefined) return;
    const inChannel = await mustList(t, 'folder.getPages', t.fixture.pagesFolderId!, { ...BASE, nodeId: channel });
    for (const id of distinct(inChannel.records.map((p) => p.templateId)).filter((id) => !templates.includes(id)))
      t.record(
        await judged(fetchList(t, 'folder.getPages', t.fixture.pagesFolderId!, { ...BASE, nodeId: channel, template_id: [id] }), (l) =>
          expectSet(
            'FLT-09',
            'template_id',
            idsWhere(inChannel.records, (p) => p.templateId === id),
            l,
            `in channel ${channel}, template_id=${id} (a template the channel's pages name) must list exactly those pages`,
          ),
        ),
      );
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'language without fallback lists exactly the pages in that language',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const languages = distinct(pages.map((p) => p.language));
    if (!languages.length) return t.nothingToJudge('no page of the pages folder has a language');
    for (const language of languages) {
      const l = await list({ language, langfallback: false });
      if (!isListing(l)) return void t.record([l]);
      // "language (string): language code"; "langfallback ... use the highest-priority language variant ... when the page lacks the
      // language" (off here). A page without a language may be taken as one of every language (open choice language-languageless).
      t.record([
        ...expectIncludes(
          'FLT-09',
          'language',
          idsWhere(pages, (p) => p.language === language),
          l,
          `language=${language}&langfallback=false must list every page in ${language}`,
        ),
        ...expectSubset(
          'FLT-09',
          'language',
          idsWhere(pages, (p) => p.language === language || text(p, 'language') === ''),
          l,
          `language=${language}&langfallback=false must list no page in another language`,
        ),
      ]);
    }
  },
  { operation: 'folder.getPages' },
);

/** A language code that no page of the listing has, so that every page lacks it. */
function absentLanguage(pages: readonly Page[]): string {
  const codes = new Set(pages.map((p) => p.language));
  return ['xx', 'zz', 'qx', 'xq'].find((code) => !codes.has(code)) ?? 'x-none';
}

/** The language variants of each content set, by content set id: pages with a language and a content set. */
function contentSets(pages: readonly Page[]): Map<number, Page[]> {
  const sets = new Map<number, Page[]>();
  for (const p of pages)
    if (p.language !== undefined && typeof p.contentSetId === 'number') sets.set(p.contentSetId, [...(sets.get(p.contentSetId) ?? []), p]);
  return sets;
}

conformance(
  'FLT-09',
  'language with fallback lists one variant of each content set, in that language where the set has it',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const sets = contentSets(pages);
    if (!sets.size) return t.nothingToJudge('no page of the pages folder has a language and a content set');
    const absent = absentLanguage(pages);
    // A code that is no language of the target may be refused (open choice language-unknown): then it has nothing to show.
    const tried = await fixture.list({ language: absent, langfallback: false });
    const refused = !isListing(tried);
    if (refused) t.nothingToJudge(`getPages refuses language=${absent}, which no page has (open choice language-unknown)`);
    else
      // "language (string): language code"; no page is in this one, and with langfallback=false no other variant stands in.
      t.record(
        expectSubset(
          'FLT-09',
          'langfallback',
          idsWhere(pages, (p) => text(p, 'language') === ''),
          tried,
          `language=${absent}&langfallback=false must list no page in a language: none is in it`,
        ),
      );
    // The languages each fallback preferred to the others of its content set, across every answer.
    const preferred: { chosen: string; over: string; set: number; language: string }[] = [];
    for (const language of [...distinct(pages.map((p) => p.language)), ...(refused ? [] : [absent])]) {
      const l = await list({ language });
      if (!isListing(l)) return void t.record([l]);
      for (const [set, variants] of sets) {
        const listed = variants.filter((p) => l.ids.includes(p.id!));
        const own = variants.filter((p) => p.language === language);
        // "langfallback (boolean, true): use the highest-priority language variant in the node when the page lacks the language":
        // each content set shows one variant, the one in the language where it has one.
        if (listed.length !== 1 || (own.length > 0 && !own.includes(listed[0]!))) {
          t.record([
            finding(
              'FLT-09',
              'language',
              `language=${language} lists ${listed.length ? brief(listed.map((p) => `${p.id} (${p.language})`)) : 'no variant'} ` +
                `of content set ${set}, whose variants are ${brief(variants.map((p) => `${p.id} (${p.language})`))}: it must list ` +
                `${own.length ? `its variant in ${language}` : 'one of them'} (${described(l.exchange)})`,
              l.exchange,
            ),
          ]);
          continue;
        }
        const chosen = listed[0]!.language!;
        if (!own.length)
          for (const other of variants) if (other.language !== chosen) preferred.push({ chosen, over: other.language!, set, language });
      }
    }
    // "the highest-priority language variant in the node": the node has one order of its languages, whichever it is, so no two
    // fallbacks may prefer two languages each to the other.
    const contrary = preferred.flatMap((a) =>
      preferred.filter((b) => b.chosen === a.over && b.over === a.chosen).map((b) => [a, b] as const),
    );
    if (contrary.length) {
      const [a, b] = contrary[0]!;
      t.record([
        finding(
          'FLT-09',
          'langfallback',
          `language=${a.language} falls back to ${a.chosen} over ${a.over} in content set ${a.set}, and language=${b.language} to ` +
            `${b.chosen} over ${b.over} in content set ${b.set}: the node's highest-priority language cannot be both`,
        ),
      ]);
    }
    t.judged('folder.getPages', 'language', 'langfallback');
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'priority lists exactly the pages of that priority, 0 lists all',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const priorities = distinct(pages.map((p) => p.priority));
    for (const priority of [0, ...priorities]) {
      const l = await list({ priority });
      if (!isListing(l)) return void t.record([l]);
      // "priority (int, 0): page priority": the pages of that priority, and perhaps those of a higher one (open choice
      // priority-filter), never a lower one; 0 lists all.
      t.record(
        priority === 0
          ? expectSet(
              'FLT-09',
              'priority',
              pages.map((p) => p.id!),
              l,
              'priority=0 is the default and must not restrict',
            )
          : [
              ...expectIncludes(
                'FLT-09',
                'priority',
                idsWhere(pages, (p) => p.priority === priority),
                l,
                `priority=${priority} must list every page of priority ${priority}`,
              ),
              ...expectSubset(
                'FLT-09',
                'priority',
                idsWhere(pages, (p) => p.priority === undefined || p.priority >= priority),
                l,
                `priority=${priority} must list no page of a lower priority`,
              ),
            ],
      );
    }
  },
  { operation: 'folder.getPages' },
);

/** Starts of file names (as the FLT-09 filename test cuts them) that no page's name contains. */
function fileNameOnly(fileNames: readonly string[], pages: readonly Page[]): { name: string; start: number; length: number }[] {
  const inNames = (part: string) => pages.some((p) => text(p, 'name').toLowerCase().includes(part.toLowerCase()));
  const out: { name: string; start: number; length: number }[] = [];
  for (const name of fileNames)
    for (let length = 2; length <= 6; length++) if (!inNames(partOf(name, 0, length))) out.push({ name, start: 0, length });
  return out;
}

conformance(
  'FLT-09',
  'filename lists the pages whose file name contains the search string',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const names = distinct(pages.map((p) => p.fileName)).filter((n) => [...n].length >= 4);
    if (!names.length) return t.nothingToJudge('no page of the pages folder has a file name of four characters or more');
    await t.property(
      fc.record({ name: fc.constantFrom(...names), start: fc.nat({ max: 6 }), length: fc.integer({ min: 2, max: 6 }) }),
      async ({ name, start, length }) => {
        const part = partOf(name, start, length);
        // "filename (string): filename search string": a file name holding it anywhere, or starting with it (open choice
        // filename-filter); a file name that starts with it is found either way.
        return judged(list({ filename: part }), (l) => [
          ...expectIncludes(
            'FLT-09',
            'filename',
            idsWhere(pages, (p) => text(p, 'fileName').startsWith(part)),
            l,
            `filename=${part} must list every page whose file name starts with it`,
          ),
          ...expectSubset(
            'FLT-09',
            'filename',
            idsWhere(pages, (p) => p.fileName?.toLowerCase().includes(part.toLowerCase()) ?? false),
            l,
            `filename=${part} must list only pages whose file name contains it`,
          ),
        ]);
      },
      // A part of a file name that no page name holds, in every run where there is one: it tells the file name from the name.
      { cover: fileNameOnly(names, pages).slice(0, 1) },
    );
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'publishedbefore and publishedsince restrict by publish date, 0 lists all',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const dates = distinct(pages.map((p) => p.pdate)).filter((d) => d > 0);
    if (!dates.length) return t.nothingToJudge('no page of the pages folder has been published');
    await t.property(
      fc.record({ date: fc.constantFrom(...dates), offset: fc.constantFrom(-1, 0, 1), zero: fc.boolean() }),
      async ({ date, offset, zero }) => {
        const out: Finding[] = [];
        for (const since of [true, false]) {
          const param = since ? 'publishedsince' : 'publishedbefore';
          const value = zero ? 0 : date + offset;
          const l = await list({ [param]: value });
          if (!isListing(l)) return [l];
          // "publishedbefore, publishedsince (int, 0): timestamp filters; 0 means all". Pages never published (pdate 0) may go either
          // way for "before".
          if (value === 0)
            out.push(
              ...expectSet(
                'FLT-09',
                param,
                pages.map((p) => p.id!),
                l,
                `${param}=0 must not restrict`,
              ),
            );
          else out.push(...boundFindings('FLT-09', param, pages, (p) => (p.pdate > 0 ? p.pdate : since ? 0 : undefined), value, since, l));
        }
        return out;
      },
      // Both bounds at a publish date between others (the middle one), in every run.
      {
        runs: Math.ceil(t.config.runs / 2),
        cover: [{ date: [...dates].sort((a, b) => a - b)[Math.floor(dates.length / 2)]!, offset: 0, zero: false }],
        // Every case with zero sends the same two requests, as does every case with the same bound.
        novel: unseen(({ date, offset, zero }) => (zero ? 0 : date + offset)),
      },
    );
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'permission lists no page of a folder that withholds it',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const root = t.fixture.pagesFolderId!;
    const top = (await t.must('folder.load', { path: { id: root }, query: { privileges: true } })).folder;
    const below = (
      await t.must('folder.getFolders', {
        path: { id: root },
        query: { recursive: true, addPrivileges: true, privilegeMap: true, maxItems: -1 },
      })
    ).folders;
    // A record names its privileges in `privileges` or, as true entries, in `privilegeMap.privileges` (open choice
    // privileges-members).
    const grantedBy = (f: NonNullable<typeof top>): readonly string[] | undefined =>
      f.privileges ??
      (f.privilegeMap?.privileges
        ? Object.entries(f.privilegeMap.privileges)
            .filter(([, on]) => on === true)
            .map(([name]) => name)
        : undefined);
    const held = new Map<number, readonly string[]>();
    for (const f of [top, ...(below ?? [])]) {
      const granted = f && grantedBy(f);
      if (f?.id !== undefined && granted) held.set(f.id, granted);
    }
    // A filter name is a privilege name when some folder's record grants it (contract 2.3 "privileges: array of string (privilege
    // names)"); a folder whose record shows privileges without it withholds it from the requesting user.
    const names = (getOperation('folder.getPages').parameters.find((p) => p.name === 'permission')?.enum ?? []).filter((n) =>
      [...held.values()].some((granted) => granted.includes(n)),
    );
    const cases = names
      .map((name) => ({
        name,
        withheld: idsWhere(pages, (p) => p.folderId !== undefined && held.get(p.folderId)?.includes(name) === false),
      }))
      .filter((c) => c.withheld.length > 0);
    if (!cases.length) return t.nothingToJudge('no folder of the pages folder shows privileges that withhold a permission from the user');
    t.judged('folder.getPages', 'permission');
    for (const { name, withheld } of cases) {
      // getPages: "permission (string, multivalued): folder permissions that must be granted".
      t.record(
        await judged(list({ permission: name }), (l) =>
          expectSubset(
            'FLT-09',
            'permission',
            pages.map((p) => p.id!).filter((id) => !withheld.includes(id)),
            l,
            `permission=${name} must list no page of a folder whose privileges withhold ${name}`,
          ),
        ),
      );
    }
  },
  { operation: 'folder.getPages' },
);

conformance(
  'FLT-09',
  'permission only ever removes pages; more permissions remove no fewer',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const ids = pages.map((p) => p.id!);
    const perms = ['view', 'read', 'edit', 'update', 'delete', 'publish', 'create', 'wastebin', 'translatepages', 'setperm'];
    await t.property(
      fc.uniqueArray(fc.constantFrom(...perms), { minLength: 1, maxLength: 3 }),
      async (permission) => {
        // "permission (string, multivalued): folder permissions that must be granted"
        const l = await list({ permission });
        if (!isListing(l)) return [l];
        const out = expectSubset('FLT-09', 'permission', ids, l, `permission=${permission.join(',')} must only restrict the pages`);
        if (permission.length > 1) {
          const one = await list({ permission: permission[0] });
          if (!isListing(one)) return [one];
          out.push(
            ...expectSubset(
              'FLT-09',
              'permission',
              one.ids,
              l,
              `requiring ${permission.join(',')} must list no page that requiring ${permission[0]} alone does not`,
            ),
          );
        }
        return out;
      },
      { runs: Math.ceil(t.config.runs / 2) },
    );
  },
  { operation: 'folder.getPages' },
);
