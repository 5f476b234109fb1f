/**
 * The body-level variations (server/variations.ts varyBody, and varyRequest for timestamps-in-ms), which the HTTP layer
 * applies to every answer: observed through the real HTTP layer, each changes the answer it claims when switched on.
 */
import { describe, expect, it } from 'vitest';
import { API_PREFIX, buildApp } from '../../server/app.ts';
import { handlers } from '../../server/handlers/index.ts';
import type { State } from '../../server/state.ts';
import { variations, varyBody, type VariationName } from '../../server/variations.ts';
import { freshState, named, type Body } from './helpers.ts';

type Get = (url: string) => Promise<Body>;
type Probe = (get: Get, s: State) => Promise<unknown>;

/** An app over a fresh store with the variations given, asked in-process (no port), and a GET of a path below the API prefix. */
function serve(on: readonly VariationName[]) {
  const state = freshState();
  const app = buildApp({ state, handlers, variations: new Set(on) });
  const get: Get = async (url) => {
    const res = await app.inject({ url: `${API_PREFIX}${url}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Body;
  };
  return { state, get, close: () => app.close() };
}

/** Runs a probe on a fresh server with the variations given. */
async function observe(probe: Probe, on: VariationName[]): Promise<string> {
  const { state, get, close } = serve(on);
  try {
    return JSON.stringify((await probe(get, state)) ?? null);
  } finally {
    await close();
  }
}

// varyBody hands an answer back untouched unless a body-level variation is on: that tells this file's variations from the others.
const untouched = {};
const AREA = variations.map((v) => v.name).filter((name) => varyBody(untouched, new Set([name])) !== untouched);

/** The Files folder as folder load answers it, envelope included. */
const loadFiles = (get: Get, s: State) => get(`/folder/load/${named(s, 'folder', 'Files').id}`);

/** A probe per variation: an answer the variation changes. */
const probes: Partial<Record<VariationName, Probe>> = {
  // Sorted: the set of members, whatever their order.
  'extra-members': async (get, s) => Object.keys((await loadFiles(get, s)).folder).sort(),
  'reordered-members': async (get, s) => Object.keys((await loadFiles(get, s)).folder),
  'deleted-at-zero': async (get, s) => [(await loadFiles(get, s)).folder.deleted],
  // The Files folder is neither inherited, excluded nor disinherited: those members are false.
  'sparse-members': async (get, s) =>
    Object.entries((await loadFiles(get, s)).folder)
      .filter(([, v]) => v === false)
      .map(([k]) => k),
  'lean-records': async (get, s) => {
    const { folder } = await loadFiles(get, s);
    return ['motherId', 'breadcrumbs', 'path', 'globalId'].filter((k) => k in folder);
  },
  // Folder load names no package.
  'no-staging-status': async (get, s) => Object.keys(await loadFiles(get, s)),
  'timestamps-in-ms': async (get, s) => {
    const { folder } = await loadFiles(get, s);
    return [folder.cdate, folder.edate];
  },
};

describe('the body-level variations', () => {
  it('probes exactly the variations varyBody applies', () => {
    expect(Object.keys(probes).sort()).toEqual([...AREA].sort());
  });

  it.each(AREA)('%s changes the answer it claims', async (name) => {
    const probe = probes[name]!;
    expect(await observe(probe, [name])).not.toBe(await observe(probe, []));
  });

  it('refusals-as-200 answers a refusal with status 200 and the code in the body, where the default answers 404', async () => {
    const status = async (on: VariationName[]) => {
      const app = buildApp({ state: freshState(), handlers, variations: new Set(on) });
      try {
        const res = await app.inject({ url: `${API_PREFIX}/folder/load/2147483000` });
        return [res.statusCode, (res.json() as Body).responseInfo.responseCode];
      } finally {
        await app.close();
      }
    };
    expect(await status([])).toEqual([404, 'NOTFOUND']);
    expect(await status(['refusals-as-200'])).toEqual([200, 'NOTFOUND']);
  });

  it('folder-localize-other-body takes the channel in nodeId and refuses channelId alone, the other way round from the default', async () => {
    const answers = async (on: VariationName[]) => {
      const state = freshState();
      const app = buildApp({ state, handlers, variations: new Set(on) });
      const [id, channel] = [
        named(state, 'folder', 'Inherited folder').id,
        [...state.nodes.values()].find((n) => n.masterId !== undefined)!.id,
      ];
      try {
        const post = async (body: Record<string, unknown>) =>
          (await app.inject({ method: 'POST', url: `${API_PREFIX}/folder/localize/${id}`, payload: body })).json().responseInfo
            .responseCode;
        return [await post({ channelId: channel }), await post({ nodeId: channel })];
      } finally {
        await app.close();
      }
    };
    expect(await answers([])).toEqual(['OK', 'INVALIDDATA']);
    expect(await answers(['folder-localize-other-body'])).toEqual(['INVALIDDATA', 'OK']);
  });

  it('timestamps-in-ms: answers 1000 times larger, and a createdsince in milliseconds selects as the same bound in seconds does without', async () => {
    const seconds = serve([]);
    const millis = serve(['timestamps-in-ms']);
    try {
      const [inSeconds, inMillis] = [
        (await loadFiles(seconds.get, seconds.state)).folder,
        (await loadFiles(millis.get, millis.state)).folder,
      ];
      expect([inMillis.cdate, inMillis.edate]).toEqual([inSeconds.cdate * 1000, inSeconds.edate * 1000]);
      const folderId = named(seconds.state, 'folder', 'Files').id;
      const since = async (server: typeof seconds, bound: number) =>
        ((await server.get(`/folder/getFiles/${folderId}?createdsince=${bound}`)).files as Body[]).map((f) => [f.name, f.cdate]);
      // A bound inside the folder's creation dates, so that it leaves some files out and keeps others.
      const bound = named(seconds.state, 'file', 'brochure.pdf').cdate;
      const all = await since(seconds, 0);
      const selected = await since(seconds, bound);
      expect(selected.length).toBeGreaterThan(0);
      expect(selected.length).toBeLessThan(all.length);
      expect(await since(millis, bound * 1000)).toEqual(selected.map(([name, cdate]) => [name, (cdate as number) * 1000]));
      // Read in milliseconds, the bound in seconds lies in January 1970: it leaves no file out.
      expect((await since(millis, bound)).length).toBe(all.length);
    } finally {
      await Promise.all([seconds.close(), millis.close()]);
    }
  });
});
