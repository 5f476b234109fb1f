/** The registered rules (harness/registry.ts, harness/rules/): each refutes what one answer shows, and judges nothing it cannot see. */
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../../harness/config.ts';
import { checkExchange, exchangeLine, findingLine, observe, RULES } from '../../harness/registry.ts';
import { ListParams, listingOf, listingOperations } from '../../harness/rules/answer.ts';
import { LEGACY_KEYS } from '../../harness/rules/ordering.ts';
import { ConformanceContext } from '../../harness/suite.ts';
import { Transport } from '../../harness/transport.ts';
import { getOperation, operations } from '../../schemas/operations.ts';
import { getRequirement } from '../../schemas/requirements.ts';
import type { Exchange } from '../../schemas/results.ts';

const BASE = 'http://cms.example/rest';
const envelope = { messages: [], responseInfo: { responseCode: 'OK' } };

/** A served listing: the URL (path and query after the base), the answer's members, optionally a JSON request body. */
function exchange(
  path: string,
  answer: Record<string, unknown>,
  options: { method?: string; status?: number; json?: unknown } = {},
): Exchange {
  const json = { ...envelope, ...answer };
  return {
    seq: 1,
    request: {
      method: options.method ?? 'GET',
      url: `${BASE}${path}`,
      headers: {},
      ...(options.json !== undefined ? { body: { kind: 'json', text: JSON.stringify(options.json) } } : {}),
    },
    response: {
      status: options.status ?? 200,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify(json),
      truncated: false,
      json,
    },
    durationMs: 1,
  };
}

/** Records with the members the checks read; names in alphabetical order unless given. */
const files = (...names: string[]) => names.map((name, i) => ({ id: 10 + i, name, description: '', cdate: 100 + i, edate: 200 + i }));

/** The requirement and check of each finding, e.g. `PAG-05 hasMoreItems`. */
function found(
  path: string,
  answer: Record<string, unknown>,
  options?: Parameters<typeof exchange>[2],
  operation = 'folder.getFiles',
): string[] {
  return checkExchange(exchange(path, answer, options), operation).findings.map((f) => `${f.requirement} ${f.check}`);
}

describe('paging slices (Group L)', () => {
  it('passes a slice that agrees with skipCount, maxItems, numItems and hasMoreItems, and says what it judged', () => {
    const r = checkExchange(
      exchange('/folder/getFiles/1?skipCount=1&maxItems=2', { files: files('b', 'c'), numItems: 4, hasMoreItems: true }),
      'folder.getFiles',
    );
    expect(r.findings).toEqual([]);
    // The rules this answer can show judged it, and none of another paging or order (a rule added later may join them).
    expect(r.checked).toEqual(expect.arrayContaining(['PAG-05', 'PAG-07', 'SRT-01', 'WST-01']));
    for (const other of ['PAG-01', 'PAG-06', 'PAG-08', 'SRT-02', 'SRT-03', 'WST-03']) expect(r.checked).not.toContain(other);
  });

  it('finds numItems counting the slice (PAG-05: hasMoreItems true although numItems says the slice reaches the end)', () => {
    const r = checkExchange(
      exchange('/folder/getFiles/1?maxItems=2', { files: files('a', 'b'), numItems: 2, hasMoreItems: true }),
      'folder.getFiles',
    );
    expect(r.findings.map((f) => `${f.requirement} ${f.check}`)).toEqual(['PAG-05 hasMoreItems']);
    expect(r.findings[0]!.message).toBe(
      'folder.getFiles: hasMoreItems is true, but with numItems 2 the slice skipCount=0 (default)&maxItems=2 ends at item 2, so no item lies beyond it',
    );
    expect(r.findings[0]!.key).toBe('PAG-05|folder.getFiles|hasMoreItems');
  });

  it('finds a slice longer than maxItems, and items for maxItems=0 (PAG-07)', () => {
    expect(found('/folder/getFiles/1?maxItems=2', { files: files('a', 'b', 'c') })).toEqual(['PAG-07 slice']);
    expect(found('/folder/getFiles/1?maxItems=0', { files: files('a') })).toEqual(['PAG-07 slice']);
  });

  it('finds a slice numItems does not select under PAG-05 alone: the slice requirements do not lean on what numItems means', () => {
    // 4 items match; skipCount=2&maxItems=3 selects items 3..4, but the server returned 3 items.
    expect(found('/folder/getFiles/1?skipCount=2&maxItems=3', { files: files('a', 'b', 'c'), numItems: 4, hasMoreItems: false })).toEqual([
      'PAG-05 numItems',
    ]);
  });

  it('judges defaults under their own requirements: PAG-06, PAG-09 for pages, PAG-08 for find operations', () => {
    // Fewer items than numItems in a default answer: numItems or the slice is wrong, PAG-05's to say.
    expect(found('/folder/getFiles/1', { files: files('a'), numItems: 3 })).toEqual(['PAG-05 numItems']);
    expect(found('/folder/getPages/1', { pages: files('a'), numItems: 3 }, {}, 'folder.getPages')).toEqual(['PAG-05 numItems']);
    const many = Array.from({ length: 101 }, (_, i) => ({ id: i, name: `f${String(i).padStart(3, '0')}` }));
    expect(found('/folder/findFiles?query=f', { files: many }, {}, 'folder.findFiles')).toEqual(['PAG-08 slice']);
    // A skipCount given is PAG-07's rule, whatever maxItems defaults to.
    expect(found('/folder/getFiles/1?skipCount=2&maxItems=1', { files: files('a', 'b') })).toEqual(['PAG-07 slice']);
  });

  it('finds hasMoreItems true on a slice without limit or not full, when numItems is absent (PAG-05; the defaults, PAG-06 and PAG-09)', () => {
    // "maxItems -1 (all items)" by default: hasMoreItems true contradicts the default itself.
    expect(found('/folder/getFiles/1', { files: files('a'), hasMoreItems: true })).toEqual(['PAG-06 hasMoreItems']);
    expect(found('/folder/getPages/1', { pages: files('a'), numItems: 1, hasMoreItems: true }, {}, 'folder.getPages')).toEqual([
      'PAG-09 hasMoreItems',
    ]);
    expect(found('/folder/getFiles/1?maxItems=-1', { files: files('a'), hasMoreItems: true })).toEqual(['PAG-05 hasMoreItems']);
    expect(found('/folder/getFiles/1?maxItems=3', { files: files('a'), hasMoreItems: true })).toEqual(['PAG-05 hasMoreItems']);
    expect(found('/folder/getFiles/1?maxItems=1', { files: files('a'), hasMoreItems: true })).toEqual([]);
  });

  it('judges nothing about paging values the contract gives no meaning to', () => {
    for (const query of ['maxItems=abc', 'maxItems=2&maxItems=3', 'skipCount=-1&maxItems=1', 'maxItems=-2']) {
      expect(
        found(`/folder/getFiles/1?${query}`, { files: files('a', 'b', 'c'), numItems: 1, hasMoreItems: true }).filter((f) =>
          f.startsWith('PAG'),
        ),
      ).toEqual([]);
    }
  });

  it('reads the parameters of POST /folder/getFolders from its body', () => {
    const body = { id: '1', maxItems: 1, sortBy: 'name', sortOrder: 'desc' };
    const r = checkExchange(
      exchange('/folder/getFolders', { folders: files('a', 'b') }, { method: 'POST', status: 201, json: body }),
      'folder.getFolders.post',
    );
    expect(r.findings.map((f) => `${f.requirement} ${f.check}`)).toEqual(['PAG-07 slice', 'SRT-03 order']);
  });
});

describe('paging slices (Group P)', () => {
  it('passes a page that agrees with page, pageSize and numItems', () => {
    expect(
      found('/file?folderId=1&page=2&pageSize=3', { items: files('d', 'e', 'f'), numItems: 7, hasMoreItems: true }, {}, 'file.list'),
    ).toEqual([]);
    expect(found('/file?folderId=1&page=3&pageSize=3', { items: files('g'), numItems: 7, hasMoreItems: false }, {}, 'file.list')).toEqual(
      [],
    );
  });

  it('finds items for pageSize=0 (PAG-02), a wrong page length (PAG-03) and hasMoreItems on an unpaged list (PAG-01)', () => {
    expect(found('/file?folderId=1&pageSize=0', { items: files('a') }, {}, 'file.list')).toEqual(['PAG-02 slice']);
    expect(found('/file?folderId=1&page=3&pageSize=2', { items: files('a', 'b', 'c'), numItems: 7 }, {}, 'file.list')).toEqual([
      'PAG-03 slice',
      'PAG-05 numItems',
    ]);
    expect(found('/file?folderId=1&page=3&pageSize=3', { items: files('a', 'b', 'c'), numItems: 7 }, {}, 'file.list')).toEqual([
      'PAG-05 numItems',
    ]);
    expect(found('/file?folderId=1', { items: files('a'), numItems: 1, hasMoreItems: true }, {}, 'file.list')).toEqual([
      'PAG-01 hasMoreItems',
    ]);
  });

  it('leaves page numbers below 1 alone (what a server makes of them is robustness)', () => {
    expect(
      found('/file?folderId=1&page=0&pageSize=1', { items: files('a', 'b'), numItems: 1 }, {}, 'file.list').filter((f) =>
        f.startsWith('PAG'),
      ),
    ).toEqual([]);
  });
});

describe('order', () => {
  it('finds a Group L default order that is not by name (SRT-01) and a desc that does not descend (SRT-02)', () => {
    expect(found('/folder/getFiles/1', { files: files('b', 'a') })).toEqual(['SRT-01 order']);
    expect(found('/folder/getFiles/1?sortorder=desc', { files: files('a', 'b') })).toEqual(['SRT-02 order']);
    expect(found('/folder/getFiles/1?sortorder=down', { files: files('a', 'b') })).toEqual([]);
  });

  it('accepts any reasonable collation of names, and leaves an ambiguous sortorder alone', () => {
    expect(found('/folder/getFiles/1', { files: files('alpha', 'Beta', 'gamma') })).toEqual([]);
    expect(found('/folder/getFiles/1', { files: files('Beta', 'alpha') })).toEqual([]);
    expect(found('/folder/getFiles/1?sortorder=DESC', { files: files('a', 'b') })).toEqual([]);
  });

  it('judges sortby attributes by the members that show them, and not where none does (SRT-03)', () => {
    const records = [
      { id: 1, name: 'a', cdate: 5 },
      { id: 2, name: 'b', cdate: 3 },
    ];
    expect(found('/folder/getFiles/1?sortby=cdate', { files: records })).toEqual(['SRT-03 order']);
    expect(found('/folder/getFiles/1?sortby=cdate&sortorder=desc', { files: records })).toEqual([]);
    expect(found('/folder/getFiles/1?sortby=priority', { files: records })).toEqual([]);
    expect(found('/folder/getFiles/1?sortby=bogus', { files: [...records].reverse() })).toEqual([]);
  });

  it('accepts either date of a page with a custom one, and leaves times of 0 out (open choices custom-dates, nulls-order)', () => {
    const pages = [
      { id: 1, name: 'a', cdate: 5, customCdate: 1 },
      { id: 2, name: 'b', cdate: 3 },
    ];
    expect(found('/folder/getPages/1?sortby=cdate', { pages }, {}, 'folder.getPages')).toEqual([]);
    expect(found('/folder/getPages/1?sortby=cdate', { pages: [pages[1], { ...pages[0], customCdate: 0 }] }, {}, 'folder.getPages')).toEqual(
      [],
    );
    expect(found('/folder/getPages/1?sortby=cdate', { pages: [{ ...pages[0], customCdate: 9 }, pages[1]] }, {}, 'folder.getPages')).toEqual(
      ['SRT-03 order'],
    );
    const p = (id: number, pdate: number) => ({ id, name: `p${id}`, pdate });
    expect(found('/folder/getPages/1?sortby=pdate', { pages: [p(1, 7), p(2, 9), p(3, 0)] }, {}, 'folder.getPages')).toEqual([]);
    expect(found('/folder/getPages/1?sortby=pdate', { pages: [p(1, 9), p(2, 7), p(3, 0)] }, {}, 'folder.getPages')).toEqual([
      'SRT-03 order',
    ]);
  });

  it('accepts a usage list sorted by name where another sortby was asked for (open choice usage-sortby)', () => {
    const users = [
      { id: 1, name: 'a', cdate: 9 },
      { id: 2, name: 'b', cdate: 3 },
    ];
    expect(found('/file/usage/file?id=1&sortby=cdate', { files: users, total: 2 }, {}, 'file.usage.file')).toEqual([]);
    expect(found('/file/usage/file?id=1&sortby=cdate', { files: [...users].reverse(), total: 2 }, {}, 'file.usage.file')).toEqual([]);
    expect(found('/file/usage/file?id=1&sortby=name', { files: [...users].reverse(), total: 2 }, {}, 'file.usage.file')).toEqual([
      'USE-03 order',
    ]);
  });

  it('judges a Group P multi-key sort, later keys within ties of exactly equal earlier keys (SRT-04, SRT-05)', () => {
    const f = (id: number, fileSize: number, name: string) => ({ id, name, fileSize, description: '' });
    expect(found('/file?folderId=1&sort=-fileSize,name', { items: [f(1, 9, 'a'), f(2, 9, 'b'), f(3, 2, 'a')] }, {}, 'file.list')).toEqual(
      [],
    );
    // A tie broken the wrong way is SRT-04's "later attributes break ties of earlier ones"; the first attribute, SRT-05's.
    expect(found('/file?folderId=1&sort=-fileSize,name', { items: [f(1, 9, 'b'), f(2, 9, 'a')] }, {}, 'file.list')).toEqual([
      'SRT-04 order',
    ]);
    expect(found('/file?folderId=1&sort=-fileSize,name', { items: [f(1, 2, 'a'), f(2, 9, 'b')] }, {}, 'file.list')).toEqual([
      'SRT-05 order',
    ]);
    expect(found('/file?folderId=1&sort=fileSize', { items: [f(1, 9, 'a'), f(2, 2, 'b')] }, {}, 'file.list')).toEqual(['SRT-05 order']);
    expect(
      found(
        '/folder?id=1&sort=name,cdate',
        {
          items: [
            { id: 1, name: 'b' },
            { id: 2, name: 'a' },
          ],
        },
        {},
        'folder.list',
      ),
    ).toEqual(['SRT-04 order']);
    // "A" and "a" tie under a case-insensitive collation: their order of the second key is not judged.
    expect(found('/file?folderId=1&sort=name,-fileSize', { items: [f(1, 1, 'A'), f(2, 9, 'a')] }, {}, 'file.list')).toEqual([]);
  });

  it('does not judge the order of trees', () => {
    expect(found('/folder/getFolders/1?tree=true', { folders: files('b', 'a') }, {}, 'folder.getFolders')).toEqual([]);
  });
});

describe('wastebin marks', () => {
  const deleted = { id: 7, name: 'gone', deleted: { at: 1700000000, by: { id: 1 } } };
  const live = { id: 8, name: 'here' };

  it('finds a deleted item without wastebin or with exclude (WST-01); deleted {at: 0} is a live item', () => {
    expect(found('/folder/getFiles/1', { files: [deleted, live] })).toEqual(['WST-01 wastebin']);
    expect(found('/folder/getFiles/1?wastebin=exclude', { files: [{ ...live, folderDeleted: { at: 5, by: { id: 1 } } }] })).toEqual([
      'WST-01 wastebin',
    ]);
    expect(found('/folder/getFiles/1', { files: [{ ...live, deleted: { at: 0 } }] })).toEqual([]);
  });

  it('finds a live item with wastebin=only (WST-03) and a deleting user that is no User (WST-02), where one is named', () => {
    expect(found('/folder/getFiles/1?wastebin=only', { files: [deleted, live] })).toEqual(['WST-03 wastebin']);
    expect(found('/folder/getFiles/1?wastebin=include', { files: [deleted, live] })).toEqual([]);
    expect(found('/folder/getFiles/1?wastebin=include', { files: [{ ...deleted, deleted: { at: 5, by: 'admin' } }] })).toEqual([
      'WST-02 deleteInfo',
    ]);
    // Which members a record carries is not shown (contract 2.1): deleted without by is no finding.
    expect(found('/folder/getFiles/1?wastebin=include', { files: [{ ...deleted, deleted: { at: 5 } }] })).toEqual([]);
  });
});

describe('filters one answer can refute', () => {
  it('finds flags the records contradict (FLT-07 files, FLT-09 pages, FLT-05 inherited)', () => {
    expect(found('/folder/getFiles/1?online=true', { files: [{ id: 1, name: 'a', online: false }] })).toEqual(['FLT-07 online']);
    expect(found('/file?folderId=1&broken=false', { items: [{ id: 1, name: 'a', broken: true }] }, {}, 'file.list')).toEqual([
      'FLT-07 broken',
    ]);
    expect(found('/folder/getPages/1?modified=false', { pages: [{ id: 1, name: 'a', modified: true }] }, {}, 'folder.getPages')).toEqual([
      'FLT-09 modified',
    ]);
    expect(
      found('/folder/getFolders/1?inherited=true', { folders: [{ id: 1, name: 'a', inherited: false }] }, {}, 'folder.getFolders'),
    ).toEqual(['FLT-05 inherited']);
    expect(found('/folder/getFiles/1?online=true', { files: [{ id: 1, name: 'a' }] })).toEqual([]);
  });

  it('reads an absent list as an empty one, and a counts-only usage answer as no list', () => {
    expect(found('/file?folderId=1&pageSize=0', { numItems: 3, hasMoreItems: true }, {}, 'file.list')).toEqual([]);
    expect(checkExchange(exchange('/file?folderId=1&pageSize=0', { numItems: 3 }), 'file.list').checked).toContain('PAG-02');
    expect(checkExchange(exchange('/file/usage/file?id=1&files=false', { total: 3, numItems: 3 }), 'file.usage.file').checked).toEqual([]);
  });

  it('refutes a page filtered by its dates only where every date it shows lies outside the bound (FLT-03, open choice custom-dates)', () => {
    const page = { id: 1, name: 'p', cdate: 100, customCdate: 300 };
    expect(found('/folder/getPages/1?createdsince=200', { pages: [page] }, {}, 'folder.getPages')).toEqual([]);
    expect(found('/folder/getPages/1?createdsince=400', { pages: [page] }, {}, 'folder.getPages')).toEqual(['FLT-03 createdsince']);
  });

  it('reads absent URLs as none in GET /file q, and searches what a folder shows in GET /folder q (FLT-02)', () => {
    expect(found('/file?folderId=1&q=nice', { items: [{ id: 1, name: 'a' }] }, {}, 'file.list')).toEqual(['FLT-02 q']);
    expect(found('/file?folderId=1&q=nice', { items: [{ id: 1, name: 'a', niceUrl: '/nice' }] }, {}, 'file.list')).toEqual([]);
    expect(found('/folder?folderId=1&q=pub', { items: [{ id: 1, name: 'a', publishDir: '/pub/' }] }, {}, 'folder.list')).toEqual([]);
  });

  it('finds records outside a timestamp bound, never at it (FLT-03), and ignores the bound 0', () => {
    expect(found('/folder/getFiles/1?createdsince=101', { files: files('a', 'b') })).toEqual(['FLT-03 createdsince']);
    expect(found('/folder/getFiles/1?createdsince=100', { files: files('a', 'b') })).toEqual([]);
    expect(found('/folder/getFiles/1?editedbefore=200', { files: files('a', 'b') })).toEqual(['FLT-03 editedbefore']);
    expect(found('/folder/getFiles/1?createdsince=0', { files: files('a', 'b') })).toEqual([]);
  });

  it('finds search results that match neither id, name nor description (FLT-01), but only where the record shows them', () => {
    const records = [
      { id: 1, name: 'Annual report', description: '' },
      { id: 2, name: 'logo', description: 'the REPORT logo' },
      { id: 3, name: 'other', description: null },
    ];
    expect(found('/folder/getFiles/1?search=report', { files: records })).toEqual(['FLT-01 search']);
    expect(found('/folder/getFiles/1?search=report', { files: records.slice(0, 2) })).toEqual([]);
    expect(found('/folder/getFiles/1?search=3', { files: records.slice(2) })).toEqual([]);
    expect(found('/folder/getFiles/1?search=report', { files: [{ id: 4, name: 'other' }] })).toEqual([]);
  });

  it('judges q through niceUrl and alternateUrls on GET /file (FLT-02) and query through names on find (FLT-10)', () => {
    const file = { id: 1, name: 'a', description: '', niceUrl: '/nice/report', alternateUrls: ['/alt/x'] };
    expect(found('/file?folderId=1&q=report', { items: [file] }, {}, 'file.list')).toEqual([]);
    expect(found('/file?folderId=1&q=zzz', { items: [file] }, {}, 'file.list')).toEqual(['FLT-02 q']);
    expect(
      found(
        '/folder/findFiles?query=rep',
        {
          files: [
            { id: 1, name: 'Report.pdf' },
            { id: 2, name: 'x' },
          ],
        },
        {},
        'folder.findFiles',
      ),
    ).toEqual(['FLT-10 query']);
  });

  it('finds pages of other templates, priorities, languages and file names (FLT-09), users (FLT-04) and nice URLs (FLT-08)', () => {
    const page = {
      id: 1,
      name: 'p',
      templateId: 5,
      priority: 2,
      language: 'de',
      fileName: 'p.de.html',
      creator: { id: 3 },
      niceUrl: '/de/p',
    };
    const pages = (query: string) => found(`/folder/getPages/1?${query}`, { pages: [page] }, {}, 'folder.getPages');
    expect(pages('template_id=4&template_id=6')).toEqual(['FLT-09 template_id']);
    expect(pages('template_id=4&template_id=5')).toEqual([]);
    // "page priority": that priority or, as some servers read it, at least that one; never a lower one.
    expect(pages('priority=3')).toEqual(['FLT-09 priority']);
    expect(pages('priority=1')).toEqual([]);
    expect(pages('priority=0')).toEqual([]);
    expect(pages('language=en&langfallback=false')).toEqual(['FLT-09 language']);
    expect(pages('language=en')).toEqual([]);
    expect(pages('filename=.en.')).toEqual(['FLT-09 filename']);
    expect(pages('creatorId=4')).toEqual(['FLT-04 creatorId']);
    expect(pages('niceurl=^/en/')).toEqual(['FLT-08 niceurl']);
    expect(pages('niceurl=p$')).toEqual([]);
    expect(pages('niceurl=(?i)x')).toEqual([]);
  });
});

describe('what is not judged', () => {
  it('leaves refusals, server errors and unknown operations to the judge', () => {
    expect(found('/folder/getFiles/1?maxItems=0', { files: files('a') }, { status: 404 })).toEqual([]);
    expect(
      checkExchange(
        exchange('/folder/getFiles/1?maxItems=0', { files: files('a'), responseInfo: { responseCode: 'NOTFOUND' } }),
        'folder.getFiles',
      ).findings,
    ).toEqual([]);
    expect(checkExchange(exchange('/folder/load/1', { folder: {} }), 'folder.load')).toEqual({ findings: [], checked: [], parameters: [] });
  });

  it('reads parameters strictly: repeated or misspelt values are not judged', () => {
    const p = ListParams.from({ maxItems: ['1', '2'], online: 'TRUE', template_id: ['1', 'x'], page: '3' });
    expect([p.int('maxItems'), p.bool('online'), p.ints('template_id'), p.int('page'), p.int('pageSize')]).toEqual([
      null,
      null,
      null,
      3,
      undefined,
    ]);
  });
});

describe('observe', () => {
  it('judges an exchange with the one judge and the stateless checks, in one line format', () => {
    const e = exchange('/folder/getFiles/1?maxItems=1', {
      files: [
        { id: '1', name: 'a', cdate: 1, edate: 1 },
        { id: 2, name: 'b', cdate: 1, edate: 1 },
      ],
    });
    const o = observe(e)!;
    expect(o.operation.id).toBe('folder.getFiles');
    expect(o.judged.map((f) => f.requirement)).toContain('ENV-07');
    expect(o.checks.map((f) => `${f.requirement} ${f.check}`)).toEqual(['PAG-07 slice']);
    expect(o.findings).toEqual([...o.judged, ...o.checks]);
    expect(findingLine(o.checks[0]!)).toBe(
      'error PAG-07 slice: folder.getFiles: 2 items were returned, more than maxItems=1 (skipCount=0 (default)&maxItems=1)',
    );
    expect(exchangeLine(e)).toBe('GET http://cms.example/rest/folder/getFiles/1?maxItems=1 -> 200');
  });

  it('leaves paths the contract does not have alone', () => {
    expect(observe(exchange('/static/app.js', {}))).toBeUndefined();
  });
});

describe('the registry itself', () => {
  /** Backticks and table pipes left out, spaces collapsed, no closing period: the words alone. */
  const words = (text: string) => text.replace(/[`|]/g, ' ').replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  const parameterSentences = new Set(operations.flatMap((op) => op.parameters.map((p) => words(`${p.name}: ${p.description ?? ''}`))));

  it('registers every rule under a requirement of the catalogue, once per check, quoting the contract', () => {
    const seen = new Set<string>();
    for (const rule of RULES) {
      const statement = words(getRequirement(rule.requirement).statement);
      const sentence = words(rule.sentence);
      // The requirement's own statement, or a parameter's meaning as the operation catalogue gives it.
      expect(
        statement.includes(sentence) || parameterSentences.has(sentence),
        `${rule.requirement} ${rule.check}: "${rule.sentence}"`,
      ).toBe(true);
      expect(seen.has(`${rule.requirement} ${rule.check}`), `${rule.requirement} ${rule.check} registered twice`).toBe(false);
      seen.add(`${rule.requirement} ${rule.check}`);
    }
  });

  it('reads its listing operations from the catalogue: member, paging and (for a JSON body) the query names', () => {
    expect(listingOf('folder.list')).toMatchObject({ member: 'items', paging: 'P' });
    expect(listingOf('folder.getPages')).toMatchObject({ member: 'pages', paging: 'L', folderPath: 'id' });
    expect(listingOf('folder.findPages')).toMatchObject({ member: 'pages', paging: 'find' });
    expect(listingOf('file.usage.folder')).toMatchObject({ member: 'folders', paging: 'usage' });
    expect(listingOf('folder.load')).toBeUndefined();
    const post = listingOf('folder.getFolders.post')!;
    expect([post.member, post.paging, post.body?.get('sortBy'), post.body?.get('createdSince')]).toEqual([
      'folders',
      'L',
      'sortby',
      'createdsince',
    ]);
    // Every operation that takes a paging parameter is a listing, and no other.
    const paged = operations.filter(
      (op) => op.parameters.some((p) => ['pageSize', 'skipCount'].includes(p.name)) || op.id === 'folder.getFolders.post',
    );
    expect(listingOperations().sort()).toEqual(paged.map((op) => op.id).sort());
  });

  it('orders by exactly the sortby values the contract names for Group L', () => {
    const sortby = getOperation('folder.getFiles').parameters.find((p) => p.name === 'sortby')!;
    expect(Object.keys(LEGACY_KEYS).sort()).toEqual([...sortby.knownValues!].sort());
  });
});

describe('one rule, the same words in the suite and the proxy', () => {
  /** A transport that answers every request with one recorded exchange. */
  class Replaying extends Transport {
    constructor(private readonly recorded: Exchange) {
      super(target);
    }
    override async send(): Promise<Exchange> {
      return this.recorded;
    }
  }
  const target: RunConfig['target'] = {
    baseUrl: BASE,
    auth: { query: {}, headers: {} },
    features: [],
    fixture: { masterNodeId: 1, masterRootFolderId: 1, sandboxParentFolderId: 1 },
  };
  const context = (requirement: string, recorded: Exchange) =>
    new ConformanceContext(
      `${requirement} a test`,
      requirement,
      { target, replayArgs: [], seed: 1, runs: 1, strict: false, timeoutMs: 1000, concurrency: 1, sandboxFolderId: 1 },
      new Replaying(recorded),
    );
  const broken = exchange('/folder/getFiles/1?skipCount=1&maxItems=2', { files: files('c', 'b', 'd'), numItems: 4, hasMoreItems: false });

  it('reports a broken answer a suite test receives as the proxy reports it: an error in the tests of its requirement', async () => {
    const proxy = observe(broken)!.checks;
    expect(proxy.map((f) => `${f.requirement} ${f.check}`)).toEqual([
      'PAG-07 slice',
      'PAG-05 numItems',
      'PAG-05 hasMoreItems',
      'SRT-01 order',
    ]);
    for (const f of proxy) {
      const t = context(f.requirement, broken);
      await t.send({ method: 'GET', path: '/folder/getFiles/1', query: { skipCount: 1, maxItems: 2 } }, 'folder.getFiles');
      const own = t.findings.filter((g) => g.requirement === f.requirement && g.check === f.check);
      expect(own.map(findingLine)).toEqual([findingLine(f)]);
    }
  });

  it('makes it a warning, in the same words, in a test of another requirement', async () => {
    const t = context('FLT-01', broken);
    await t.send({ method: 'GET', path: '/folder/getFiles/1', query: { skipCount: 1, maxItems: 2 } }, 'folder.getFiles');
    const proxy = observe(broken)!.checks;
    expect(t.findings.filter((f) => f.check !== 'schema').map(findingLine)).toEqual(
      proxy.map((f) => findingLine({ ...f, severity: 'warning' })),
    );
    expect([...t.ruled]).toEqual(expect.arrayContaining(['PAG-05', 'PAG-07', 'SRT-01', 'WST-01']));
  });
});
