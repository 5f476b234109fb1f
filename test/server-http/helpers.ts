/** Shared pieces of the HTTP-layer tests: a stub semantics, an app factory and multipart body builders. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { multipartBody as buildMultipart, type BodyPart } from '../../harness/multipart.ts';
import { buildApp, type AppOptions } from '../../server/app.ts';
import { Refusal, type Handler, type OpRequest } from '../../server/types.ts';

/** The stub's state: folders by id and the requests each handler received. */
export interface StubState {
  folders: Map<string, { id: number; name: string }>;
  calls: OpRequest[];
}

/** A fresh stub state with one folder, id 1. */
export function stubState(): StubState {
  return { folders: new Map([['1', { id: 1, name: 'Root' }]]), calls: [] };
}

function recorded(handler: Handler<StubState>): Handler<StubState> {
  return (state, req, ctx) => {
    state.calls.push(req);
    return handler(state, req, ctx);
  };
}

/**
 * Stub handlers for a few operations, enough to exercise the HTTP layer without the real semantics:
 * they echo what they received so tests can see the parsing.
 */
export const stubHandlers: Record<string, Handler<StubState>> = Object.fromEntries(
  Object.entries<Handler<StubState>>({
    'folder.load': (state, req) => {
      const folder = state.folders.get(req.path.id ?? '');
      if (!folder) throw new Refusal('NOTFOUND', `folder ${req.path.id} not found`);
      return { folder, stagingStatus: {}, description: null };
    },
    'folder.getFiles': (_state, req) => ({ files: [], query: req.query }),
    'folder.getPages': (_state, req) => ({ pages: [], query: req.query }),
    'folder.findFiles': () => ({ files: [], numItems: 0, hasMoreItems: false }),
    'folder.create': (state, req) => {
      const body = req.body as { name?: string };
      if (body.name === 'taken') throw new Refusal('INVALIDDATA', 'name already used', 'name');
      const folder = { id: state.folders.size + 1, name: body.name ?? 'New' };
      state.folders.set(String(folder.id), folder);
      return { folder };
    },
    'folder.delete': () => {
      throw new Refusal('FAILURE', 'has to be deleted in the master node', undefined, 409);
    },
    'folder.count': () => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    },
    'file.create.multipart': (_state, req) => {
      const files = req.multipart?.files ?? [];
      const data = files.find((f) => f.fieldName.toLowerCase() === 'filebinarydata');
      if (!data) throw new Refusal('INVALIDDATA', 'no data part', 'fileBinaryData');
      return {
        success: true,
        file: { name: data.filename, fileSize: data.data.length, fileType: data.mimeType },
        fields: req.multipart?.fields,
      };
    },
    'file.createSimple.raw': (_state, req) => ({
      success: true,
      file: { name: req.query.qqfile, fileSize: req.raw?.data.length, fileType: req.raw?.contentType, hex: req.raw?.data.toString('hex') },
    }),
  }).map(([id, handler]) => [id, recorded(handler)]),
);

/** Builds an app over the stub semantics (or the given one); tests inject requests into it. */
export function stubApp(options: Partial<AppOptions<StubState>> = {}): { app: FastifyInstance; state: StubState } {
  const state = stubState();
  return { app: buildApp({ state, handlers: stubHandlers, ...options }), state };
}

/** A multipart/form-data body built byte by byte (harness/multipart.ts), with the tests' fixed boundary, so tests can also send broken ones. */
export function multipartBody(parts: BodyPart[], boundary = 'cmsBoundary7MA4YWxk'): Buffer {
  return buildMultipart(parts, boundary);
}

/** The parsed JSON body of an injected response. */
export function json(res: LightMyRequestResponse): Record<string, unknown> & { responseInfo: Record<string, unknown> } {
  return res.json();
}

/** Asserts the response is a refusal with that status and responseCode, carrying the full envelope. */
export function expectRefusal(res: LightMyRequestResponse, status: number, code: string, property?: string): void {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = json(res);
  expect(body.messages).toEqual([
    expect.objectContaining({ type: 'CRITICAL', message: expect.any(String), timestamp: expect.any(Number) }),
  ]);
  expect(body.responseInfo).toMatchObject({ responseCode: code, responseMessage: expect.any(String) });
  if (property !== undefined) expect(body.responseInfo.property).toBe(property);
}
