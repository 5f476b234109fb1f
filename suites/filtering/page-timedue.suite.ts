/**
 * The getPages time filter (FLT-09 `timedue`) on the fixture's pages folder (with its sub-folders): the pages whose time
 * management falls within the span, judged by their own records against the target's clock.
 */
import { finding } from '../../harness/checks.ts';
import { described, expectIncludes, expectSet, expectSubset, idsWhere, isListing, judged, type Listing } from '../../harness/lists.ts';
import { brief } from '../../harness/oracles.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { Page } from '../../schemas/types.ts';
import { distinct, pagesOf } from './pages-of.ts';

/** The time-management moments of a page that change its status: publishing an offline page, taking an online page offline. */
function dueAt(p: Page): number | undefined {
  const at = p.online ? p.timeManagement?.offlineAt : p.timeManagement?.at;
  return at !== undefined && at > 0 ? at : undefined;
}

/** Whether a page has any time-management moment at all. */
const hasTimeManagement = (p: Page): boolean =>
  [p.timeManagement?.at, p.timeManagement?.offlineAt, p.timeManagement?.queuedPublish?.at, p.timeManagement?.queuedOffline?.at].some(
    (v) => v !== undefined && v > 0,
  );

conformance(
  'FLT-09',
  'timedue lists the pages time management changes within the span; more time lists more, 0 lists all',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const all = await list({ timedue: 0 });
    if (!isListing(all)) return void t.record([all]);
    // "timedue (int, 0): seconds; ... 0 ignores time management"
    t.record(
      expectSet(
        'FLT-09',
        'timedue',
        pages.map((p) => p.id!),
        all,
        'timedue=0 must not restrict',
      ),
    );
    const spans = [60, 86_400, 365 * 86_400, 10 * 365 * 86_400];
    t.judged('folder.getPages', 'timedue');
    const lists: Listing<Page>[] = [];
    for (const span of spans) {
      const l = await list({ timedue: span });
      if (!isListing(l)) return void t.record([l]);
      lists.push(l);
      // "pages changing status by time management within the span": only pages with time management.
      const stray = l.records.filter((p) => !hasTimeManagement(p));
      if (stray.length)
        t.record([
          finding(
            'FLT-09',
            'timedue',
            `timedue=${span} lists ${brief(stray.map((p) => p.id))}, which have no time management (${described(l.exchange)})`,
            l.exchange,
          ),
        ]);
    }
    for (let i = 1; i < lists.length; i++)
      t.record(
        expectIncludes(
          'FLT-09',
          'timedue',
          lists[i - 1]!.ids,
          lists[i]!,
          `timedue=${spans[i]} is a longer span than ${spans[i - 1]} and must keep every page that one lists`,
        ),
      );
    const clock = await targetClock(t);
    if (!clock) return;
    // A day of slack: the span starts when the target reads the request, a little after the clock was read.
    const horizon = clock.now + (spans.at(-1)! - 86_400) * clock.perSecond;
    t.record(
      expectIncludes(
        'FLT-09',
        'timedue',
        idsWhere(pages, (p) => (dueAt(p) ?? Infinity) <= horizon),
        lists.at(-1)!,
        `timedue=${spans.at(-1)} must list the pages whose time management is due within the span`,
      ),
    );
  },
  { operation: 'folder.getPages' },
);

/**
 * "Now" on the target's clock in the unit of its timestamps (contract 2.1: "Their unit and epoch: not shown"): the creation
 * date of a folder made now, read as seconds or as milliseconds since 1970 by which of them lies within a week of this
 * machine's clock; undefined, said as nothing to judge, when neither does. `timedue` itself is in seconds.
 */
async function targetClock(t: ConformanceContext): Promise<{ now: number; perSecond: number } | undefined> {
  const cdate = (await t.must('folder.load', { path: { id: await t.folder() } })).folder?.cdate;
  const seconds = Date.now() / 1000;
  for (const perSecond of [1, 1000])
    if (typeof cdate === 'number' && Math.abs(cdate / perSecond - seconds) < 7 * 86_400) return { now: cdate, perSecond };
  t.nothingToJudge(
    `a folder made now has cdate ${JSON.stringify(cdate)}, neither seconds nor milliseconds since 1970 by this machine's clock: ` +
      'the moments of time management cannot be set against a span in seconds',
  );
  return undefined;
}

/** The earliest time-management moment of a page, of any kind; undefined when it has none. */
function earliestMoment(p: Page): number | undefined {
  const tm = p.timeManagement;
  const moments = [tm?.at, tm?.offlineAt, tm?.queuedPublish?.at, tm?.queuedOffline?.at].filter(
    (v): v is number => v !== undefined && v > 0,
  );
  return moments.length ? Math.min(...moments) : undefined;
}

conformance(
  'FLT-09',
  'timedue leaves out the pages whose time management is due beyond the span, and lists them once the span reaches it',
  async (t) => {
    const fixture = await pagesOf(t);
    if (!fixture) return;
    const { pages, list } = fixture;
    const DAY = 86_400;
    const clock = await targetClock(t);
    if (!clock) return;
    // Spans are seconds; the moments are in the target's unit. A day of slack: the target reads the request a little later.
    const { now, perSecond } = clock;
    const beyond = (p: Page, span: number) => (earliestMoment(p) ?? -Infinity) > now + (span + DAY) * perSecond;
    const later = pages.filter((p) => beyond(p, DAY));
    if (!later.length) return t.nothingToJudge('no page of the pages folder has time management due more than two days from now');
    t.judged('folder.getPages', 'timedue');
    // "timedue (int, 0): seconds; pages changing status by time management within the span": nothing of a page whose every
    // moment lies beyond the span changes within it.
    t.record(
      await judged(list({ timedue: DAY }), (l) =>
        expectSubset(
          'FLT-09',
          'timedue',
          idsWhere(pages, (p) => !beyond(p, DAY)),
          l,
          `timedue=${DAY} must list no page whose time management is first due after the span`,
        ),
      ),
    );
    // The page due soonest and the one due last: a span a day short of its moment leaves it out, a day past it lists it.
    const due = later.filter((p) => dueAt(p) !== undefined).sort((a, b) => dueAt(a)! - dueAt(b)!);
    for (const p of distinct([due[0], due.at(-1)])) {
      const short = Math.floor((earliestMoment(p)! - now) / perSecond - DAY);
      const long = Math.ceil((dueAt(p)! - now) / perSecond + DAY);
      t.record(
        await judged(list({ timedue: short }), (l) =>
          expectSubset(
            'FLT-09',
            'timedue',
            pages.map((x) => x.id!).filter((id) => id !== p.id),
            l,
            `timedue=${short} must leave out page ${p.id}, whose time management is first due a day after the span`,
          ),
        ),
      );
      t.record(
        await judged(list({ timedue: long }), (l) =>
          expectIncludes(
            'FLT-09',
            'timedue',
            [p.id!],
            l,
            `timedue=${long} must list page ${p.id}, whose status changes a day within the span`,
          ),
        ),
      );
    }
  },
  { operation: 'folder.getPages' },
);
