/** The operation and requirement catalogues agree with the shared contract and catalogue, and with the schemas. */
import { afterEach, describe, expect, it, vi, type TestContext } from 'vitest';
import { SCHEMA_BASE, schemasById } from '../schemas/index.ts';
import { findOperation, getOperation, matchPath, operations, type Parameter } from '../schemas/operations.ts';
import { getRequirement, matchRequirements, requirements } from '../schemas/requirements.ts';
import { main } from '../cli/main.ts';
import { coverageOf, provenVerdict, unprovenHint, unprovenTests } from '../cli/requirements.ts';
import { faults } from '../server/faults.ts';
import { SHARED_ABSENT, hasShared, readShared } from './support/shared.ts';

const sharedCatalogue = readShared('requirements.md');
const contract = readShared('content-management-service.md');

/** Makes a test that compares with ../shared skip, saying why, where that folder is absent. */
function withShared(body: () => void): (context: TestContext) => void {
  return ({ skip }) => {
    skip(!hasShared, SHARED_ABSENT);
    body();
  };
}

/** Rows of the shared operation table: id, method, path and the response column. */
const tableRows = sharedCatalogue
  .split('\n')
  .map((line) => /^\| ([a-z0-9.]+[A-Za-z0-9.]*) \| (GET|POST) (\S+)[^|]*\| ([^|]+) \|$/.exec(line))
  .filter((m) => m !== null)
  .map(([, id, method, path, response]) => ({ id: id!, method: method!, path: path!, response: response!.trim() }));

/** The `- XXX-NN MUST|SHOULD: ...` lines of the shared catalogue with the family header above each. */
const sharedRequirements = (() => {
  const out: { id: string; level: string; text: string; header: string }[] = [];
  let header = '';
  for (const line of sharedCatalogue.split('\n')) {
    if (line.startsWith('## ')) header = line;
    const m = /^- ([A-Z]{3}-\d{2}) (MUST|SHOULD): (.*)$/.exec(line);
    if (m) out.push({ id: m[1]!, level: m[2]!, text: m[3]!, header });
  }
  return out;
})();

const contractSections = new Set(
  contract
    .split('\n')
    .map((line) => /^#{2,3} (\d+(?:\.\d+)?)\.? /.exec(line)?.[1])
    .filter((s) => s !== undefined),
);

const features = ['multichannelling', 'wastebin', 'pages', 'templates', 'sourceUrl', 'auth'];

const param = (opId: string, name: string): Parameter | undefined =>
  getOperation(opId).parameters.find((p) => p.in === 'query' && p.name === name);

describe('operation catalogue', () => {
  it(
    'parses the shared operation table',
    withShared(() => {
      expect(tableRows).toHaveLength(43);
    }),
  );

  it(
    'has exactly the operations of the shared table, in its order, with its methods and paths',
    withShared(() => {
      expect(operations.map((op) => [op.id, op.method, op.path])).toEqual(tableRows.map((r) => [r.id, r.method, r.path]));
    }),
  );

  it(
    'names a response schema of the type the shared table gives',
    withShared(() => {
      for (const row of tableRows) {
        const typeName = /^[A-Z][A-Za-z]+/.exec(row.response)?.[0];
        if (typeName) expect(getOperation(row.id).response.schema, row.id).toMatch(new RegExp(`^responses/${typeName}`));
      }
    }),
  );

  it('names request and response schemas that exist', () => {
    for (const op of operations) {
      expect(schemasById.has(SCHEMA_BASE + op.response.schema), `${op.id} response`).toBe(true);
      if (op.requestBody?.schema) expect(schemasById.has(SCHEMA_BASE + op.requestBody.schema), `${op.id} body`).toBe(true);
    }
  });

  it('answers 200 for GET and 201 for POST', () => {
    // Contract 4: "All success statuses: 200 for GET, 201 for POST."
    for (const op of operations) expect(op.response.status, op.id).toBe(op.method === 'GET' ? 200 : 201);
  });

  it('declares every path placeholder as a required path parameter with an id kind, and no other', () => {
    for (const op of operations) {
      const placeholders = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const pathParams = op.parameters.filter((p) => p.in === 'path');
      expect(
        pathParams.map((p) => p.name),
        op.id,
      ).toEqual(placeholders);
      for (const p of pathParams) {
        expect(p.required, op.id).toBe(true);
        expect(['local-or-global', 'int', 'unspecified'], op.id).toContain(p.idKind);
      }
    }
  });

  it('has parameters that are unique, well typed, and whose defaults fit their type and enumeration', () => {
    for (const op of operations) {
      const keys = op.parameters.map((p) => `${p.in} ${p.name}`);
      expect(new Set(keys).size, op.id).toBe(keys.length);
      for (const p of op.parameters) {
        const where = `${op.id} ${p.name}`;
        expect(['integer', 'boolean', 'string', 'number'], where).toContain(p.type);
        if (p.default === undefined) continue;
        expect(p.multivalued, where).toBeUndefined();
        if (p.type === 'integer') expect(Number.isInteger(p.default), where).toBe(true);
        else expect(typeof p.default, where).toBe(p.type);
        if (p.enum) expect(p.enum, where).toContain(p.default);
      }
    }
  });

  it('expands groups F, L and P into exactly the operations that name them', () => {
    const withGroup = (g: string) => operations.filter((op) => op.parameters.some((p) => p.group === g)).map((op) => op.id);
    expect(withGroup('F')).toEqual([
      'folder.list',
      'folder.getFolders',
      'folder.getFiles',
      'folder.getPages',
      'folder.getTemplates',
      'file.list',
    ]);
    expect(withGroup('L')).toEqual(['folder.getFolders', 'folder.getFiles', 'folder.getPages', 'folder.getTemplates']);
    expect(withGroup('P')).toEqual(['folder.list', 'file.list']);
    for (const id of withGroup('F'))
      expect(
        getOperation(id).parameters.filter((p) => p.group === 'F'),
        id,
      ).toHaveLength(16);
  });

  it('keeps the contract defaults of the paging parameters', () => {
    // Contract 8: maxItems "default -1 (all items)" for Group L, "default 100; -1 returns all" for findFiles/findPages.
    for (const id of ['folder.getFolders', 'folder.getFiles', 'folder.getPages', 'folder.getTemplates']) {
      expect(param(id, 'maxItems')?.default, id).toBe(-1);
      expect(param(id, 'skipCount')?.default, id).toBe(0);
    }
    for (const id of ['folder.findFiles', 'folder.findPages']) {
      expect(param(id, 'maxItems')?.default, id).toBe(100);
      expect(param(id, 'recursive')?.default, id).toBe(true);
      expect(param(id, 'folderId'), id).toMatchObject({ type: 'integer', default: 0 });
      expect(param(id, 'links'), id).toMatchObject({ enum: ['backend', 'frontend'], default: 'backend' });
    }
    // Contract 8: pageSize "default -1 (no paging); 0 returns no items; page starts at 1".
    for (const id of ['folder.list', 'file.list']) {
      expect(param(id, 'pageSize')?.default, id).toBe(-1);
      expect(param(id, 'page')?.default, id).toBe(1);
    }
  });

  it('encodes the enumerations, open values and required query parameters of the contract', () => {
    // Contract 4.1: wastebin "enumeration exclude, include, only | exclude".
    expect(param('folder.count', 'wastebin')).toMatchObject({ enum: ['exclude', 'include', 'only'], default: 'exclude' });
    // Contract 4.1: sortorder "asc or desc, other strings ignored": not a closed enumeration.
    expect(param('folder.getFiles', 'sortorder')?.enum).toBeUndefined();
    expect(param('folder.getPages', 'permission')).toMatchObject({ multivalued: true });
    expect(param('folder.getPages', 'permission')?.enum).toHaveLength(37);
    expect(param('file.createSimple.raw', 'folderId')).toMatchObject({ type: 'integer', required: true });
    expect(param('folder.localizationinfo', 'recursive')).toMatchObject({ type: 'boolean', required: true });
    const required = operations.flatMap((op) =>
      op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => `${op.id} ${p.name}`),
    );
    expect(required).toEqual(['folder.localizationinfo recursive', 'file.createSimple.raw folderId']);
  });

  it('lists only the path parameter where the contract does not show the parameters', () => {
    const notShown = operations.filter((op) => op.parametersShown === false);
    expect(notShown.map((op) => op.id)).toEqual(['folder.breadcrumb', 'folder.getItems', 'file.load', 'file.usage.page']);
    for (const op of notShown)
      expect(
        op.parameters.every((p) => p.in === 'path'),
        op.id,
      ).toBe(true);
  });

  it('tags the multichannelling and sourceUrl operations with their feature', () => {
    const mc = /localize|unlocalize|disinherit|push2master|localizationinfo|localizations|syncableObjects/;
    for (const op of operations) {
      const expected = mc.test(op.id) ? 'multichannelling' : op.id === 'file.create.json' ? 'sourceUrl' : null;
      expect(op.feature, op.id).toBe(expected);
    }
  });

  it('finds operations by method, concrete path and content type', () => {
    expect(findOperation('GET', '/folder/getFiles/12')?.id).toBe('folder.getFiles');
    expect(findOperation('get', '/file?q=x')?.id).toBe('file.list');
    expect(findOperation('GET', '/folder/disinherit')?.id).toBe('folder.disinherit.getMany');
    expect(findOperation('GET', '/folder/disinherit/7')?.id).toBe('folder.disinherit.get');
    // Contract 4.3: "The two forms share one path and are chosen by the request Content-Type."
    expect(findOperation('POST', '/file/create', 'application/json; charset=utf-8')?.id).toBe('file.create.json');
    expect(findOperation('POST', '/file/create', 'multipart/form-data; boundary=x')?.id).toBe('file.create.multipart');
    expect(findOperation('POST', '/file/createSimple', 'multipart/form-data; boundary=x')?.id).toBe('file.createSimple.multipart');
    expect(findOperation('POST', '/file/createSimple', 'image/png')?.id).toBe('file.createSimple.raw');
    expect(findOperation('POST', '/file/save/3', 'Multipart/Form-Data; boundary=y')?.id).toBe('file.save.multipart');
    expect(findOperation('GET', '/folder/unknown')).toBeUndefined();
    expect(findOperation('DELETE', '/file')).toBeUndefined();
    expect(matchPath('/folder/load/{id}', '/folder/load/A547.6d75%2F1')).toEqual({ id: 'A547.6d75/1' });
    expect(matchPath('/folder/load/{id}', '/folder/load/')).toBeUndefined();
    expect(() => getOperation('folder.nope')).toThrow(/unknown operation id/);
  });
});

describe('requirement catalogue', () => {
  it(
    'parses the shared requirement lines',
    withShared(() => {
      expect(sharedRequirements.length).toBeGreaterThan(80);
    }),
  );

  it('has unique ids whose family is their prefix, with a known feature', () => {
    expect(new Set(requirements.map((r) => r.id)).size).toBe(requirements.length);
    for (const r of requirements) {
      expect(r.id.startsWith(`${r.family}-`), r.id).toBe(true);
      if (r.feature !== null) expect(features, r.id).toContain(r.feature);
      expect(r.statement, r.id).toMatch(/^[^\n]+$/);
    }
  });

  it(
    'places every requirement in a section of the shared contract',
    withShared(() => {
      for (const r of requirements) expect(contractSections, r.id).toContain(r.section);
    }),
  );

  it(
    'contains every id of the shared catalogue at the same level',
    withShared(() => {
      for (const shared of sharedRequirements) expect(getRequirement(shared.id).level, shared.id).toBe(shared.level);
    }),
  );

  it(
    'derives every split id from a shared id at the same level',
    withShared(() => {
      const shared = new Map(sharedRequirements.map((s) => [s.id, s]));
      for (const r of requirements.filter((r) => r.family !== 'OP' && !shared.has(r.id))) {
        const parent = shared.get(r.id.replace(/[a-z]$/, ''));
        expect(parent, r.id).toBeDefined();
        expect(r.level, r.id).toBe(parent?.level);
      }
    }),
  );

  it(
    'tags requirements with the features the shared catalogue names',
    withShared(() => {
      for (const shared of sharedRequirements) {
        // "(feature X)" closing a line, or a family header "— feature X" without a qualifying "for".
        const feature = /\(feature (\w+)\)\.?$/.exec(shared.text)?.[1] ?? /— feature (\w+)$/.exec(shared.header)?.[1];
        if (feature) expect(getRequirement(shared.id).feature, shared.id).toBe(feature);
      }
      // "WST — feature wastebin for include/only": the include/only requirements need the feature, WST-01 does not.
      expect(
        matchRequirements(['WST'])
          .filter((r) => r.feature === 'wastebin')
          .map((r) => r.id),
      ).toEqual(['WST-02', 'WST-03', 'WST-04a', 'WST-05']);
    }),
  );

  it('has one OP requirement per operation, carrying its section and feature', () => {
    const ops = requirements.filter((r) => r.family === 'OP');
    expect(ops.map((r) => r.id)).toEqual(operations.map((op) => `OP-${op.id}`));
    for (const r of ops) {
      const op = getOperation(r.operation!);
      expect([r.level, r.section, r.feature], r.id).toEqual(['MUST', op.section, op.feature]);
    }
  });

  it('matches ids and prefixes, and refuses a pattern matching nothing', () => {
    expect(matchRequirements(['PAG']).map((r) => r.id)).toEqual(requirements.filter((r) => r.family === 'PAG').map((r) => r.id));
    expect(matchRequirements(['WST-04']).map((r) => r.id)).toEqual(['WST-04', 'WST-04a']);
    expect(matchRequirements(['OP-folder.getFolders']).map((r) => r.id)).toEqual(['OP-folder.getFolders.post', 'OP-folder.getFolders']);
    expect(matchRequirements(['OP-file.create', 'ENV-01']).map((r) => r.id)).toEqual([
      'OP-file.create.multipart',
      'OP-file.create.json',
      'ENV-01',
    ]);
    expect(matchRequirements(['OP-folder.load']).map((r) => r.id)).toEqual(['OP-folder.load']);
    expect(() => matchRequirements(['PA'])).toThrow(/no requirement matches: PA/);
    expect(() => getRequirement('XXX-01')).toThrow(/unknown requirement id/);
  });
});

describe('cms-conformance requirements', () => {
  afterEach(() => vi.restoreAllMocks());

  const captured = () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    return () => log.mock.calls.map((c) => String(c[0])).join('\n');
  };

  it('prints a table of one family', async () => {
    const out = captured();
    expect(await main(['requirements', '--family', 'neg'])).toBe(0);
    const lines = out().split('\n');
    expect(lines[0]).toMatch(/^id\s+level\s+feature\s+section\s+statement$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['NEG-01', 'NEG-02', 'NEG-03', 'NEG-04', 'NEG-05', 'NEG-06']);
  });

  it('prints the selected requirements as JSON', async () => {
    const out = captured();
    expect(await main(['requirements', '--family', 'PGE', '--family', 'DEL', '--json'])).toBe(0);
    const printed = JSON.parse(out()) as { id: string }[];
    expect(printed).toEqual(requirements.filter((r) => r.family === 'DEL' || r.family === 'PGE'));
  });

  it('says how to prove the requirements that have no prove result yet, as in a fresh clone', () => {
    const selected = requirements.filter((r) => r.family === 'NEG');
    const hint = unprovenHint(selected, coverageOf([]), 'reports/out/prove.json');
    expect(hint).toBe(
      `${selected.length} of ${selected.length} requirements are not proven yet (reports/out/prove.json holds no result of their planted faults): ` +
        '`cms-conformance prove` runs every planted fault against the reference server and records which test found it',
    );
    const proved = {
      seed: 1,
      runs: 10,
      cases: faults
        .filter((f) => f.breaks.some((id) => id.startsWith('NEG-')))
        .map((f) => ({
          kind: 'fault' as const,
          name: f.name,
          requirements: f.breaks,
          seed: 1,
          ok: true,
          detail: '',
          tests: 1,
          durationMs: 1,
          provedBy: Object.fromEntries(f.breaks.map((id) => [id, `${id} test`])),
        })),
    };
    expect(unprovenHint(selected, coverageOf([], undefined, proved), 'x')).toBeUndefined();
  });

  it('counts the tests of a requirement that a planted fault naming it made fail, and the tests not proven', () => {
    const declared = ['DEL-01 a', 'DEL-01 b', 'DEL-01 c', 'DEL-02 x', 'DEL-02 y', 'DEL-03 z', 'DEL-04 w'].map((id) => ({
      id,
      requirement: id.split(' ')[0]!,
      file: 'suites/delete/delete.suite.ts',
    }));
    const planted = [
      { name: 'f1', breaks: ['DEL-01', 'DEL-02'], description: '' },
      { name: 'f2', breaks: ['DEL-01'], description: '' },
      { name: 'f3', breaks: ['DEL-04'], description: '' },
    ];
    const fault = (name: string, ids: string[], killed?: string[]) => ({
      kind: 'fault' as const,
      name,
      requirements: ids,
      seed: 1,
      ok: true,
      detail: '',
      tests: 1,
      durationMs: 1,
      provedBy: { [ids[0]!]: killed?.[0] ?? `${ids[0]} a` },
      ...(killed ? { killed } : {}),
    });
    const proved = {
      seed: 1,
      runs: 10,
      cases: [
        // A test of another id that failed under f1 proves nothing about DEL-01; a test no longer declared counts for none.
        fault('f1', ['DEL-01', 'DEL-02'], ['DEL-01 a', 'DEL-02 x', 'DEL-03 z']),
        fault('f2', ['DEL-01'], ['DEL-01 a', 'DEL-01 b', 'DEL-01 gone']),
        // Written before prove recorded every test that found a fault: it cannot say which did.
        fault('f3', ['DEL-04']),
      ],
    };
    const coverage = coverageOf(declared, undefined, proved, planted);
    expect(['DEL-01', 'DEL-02', 'DEL-03', 'DEL-04', 'DEL-05'].map((id) => provenVerdict(coverage.get(id)))).toEqual([
      '2/3',
      '1/2',
      'no fault',
      'not proven yet',
      '-',
    ]);
    expect(unprovenTests(coverage, ['DEL-01', 'DEL-02', 'DEL-03', 'DEL-04'])).toEqual(['DEL-01 c', 'DEL-02 y', 'DEL-03 z']);
  });

  it('refuses an unknown family with exit code 2', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await main(['requirements', '--family', 'XYZ'])).toBe(2);
    expect(String(error.mock.calls[0]?.[0])).toMatch(/unknown family XYZ/);
  });
});
