/**
 * What every handler needs: reading parsed (or, for operations whose parameters are "not shown",
 * raw) query values, the request body, and resolving ids and node ids into objects and views,
 * refusing client mistakes with a Refusal and never changing state while doing so.
 */
import {
  ancestorsVisible,
  inWastebin,
  lookup,
  resolveInView,
  takenNames,
  viewOf,
  type Kind,
  type Obj,
  type State,
  type TakenNames,
  type View,
} from '../state.ts';
import { getOperation } from '../../schemas/operations.ts';
import { readScalar } from '../../schemas/coercion.ts';
import { readRequestBody } from '../coerce.ts';
import { Refusal, type FaultSet, type OpRequest } from '../types.ts';
import * as planted from './planted/common.ts';

/** The wastebin modes of the `wastebin` parameter. */
export type Wastebin = 'exclude' | 'include' | 'only';

function rawValues(req: OpRequest, name: string): string[] {
  return (req.rawQuery[name] ?? []).filter((v) => v !== '');
}

function parseInteger(value: string, name: string): number {
  const n = Number(value);
  if (!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new Refusal('INVALIDDATA', `${name}: "${value}" is not an integer`, name);
  return n;
}

function parseBool(value: string, name: string): boolean {
  if (!/^(true|false)$/i.test(value)) throw new Refusal('INVALIDDATA', `${name}: "${value}" is not true or false`, name);
  return value.toLowerCase() === 'true';
}

/** An integer query parameter: the parsed value, else the raw one (operations with undeclared parameters), else the fallback. */
export function qInt(req: OpRequest, name: string, fallback: number): number;
export function qInt(req: OpRequest, name: string): number | undefined;
export function qInt(req: OpRequest, name: string, fallback?: number): number | undefined {
  const v = req.query[name];
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return parseInteger(v, name);
  const raw = rawValues(req, name)[0];
  return raw === undefined ? fallback : parseInteger(raw, name);
}

/** A boolean query parameter (see qInt). */
export function qBool(req: OpRequest, name: string, fallback: boolean): boolean;
export function qBool(req: OpRequest, name: string): boolean | undefined;
export function qBool(req: OpRequest, name: string, fallback?: boolean): boolean | undefined {
  const v = req.query[name];
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return parseBool(v, name);
  const raw = rawValues(req, name)[0];
  return raw === undefined ? fallback : parseBool(raw, name);
}

/** A string query parameter (see qInt); an empty string counts as given. */
export function qStr(req: OpRequest, name: string): string | undefined {
  const v = req.query[name];
  if (v !== undefined && !Array.isArray(v)) return String(v);
  return req.rawQuery[name]?.[0];
}

/** A multivalued integer parameter: every value given (ENV-06), empty when absent. */
export function qInts(req: OpRequest, name: string): number[] {
  const v = req.query[name];
  if (Array.isArray(v) && v.length > 0) return v.map((x) => (typeof x === 'number' ? x : parseInteger(String(x), name)));
  if (typeof v === 'number') return [v];
  return rawValues(req, name).map((x) => parseInteger(x, name));
}

/** A multivalued string parameter (see qInts). */
export function qStrs(req: OpRequest, name: string): string[] {
  const v = req.query[name];
  if (Array.isArray(v) && v.length > 0) return v.map(String);
  if (typeof v === 'string') return [v];
  return rawValues(req, name);
}

/** The `wastebin` parameter; an unknown value is treated as exclude (WST-06). */
export function qWastebin(req: OpRequest, faults: FaultSet, name = 'wastebin'): Wastebin {
  const v = qStr(req, name);
  const mode: Wastebin = v === 'include' || v === 'only' ? v : 'exclude';
  return planted.qWastebin(faults).mode(mode);
}

/**
 * The JSON body as the request schema's type; `{}` when absent. The HTTP layer has already read it
 * (server/coerce.ts); reading it again here is a no-op for such a body and gives a handler called
 * directly the same conversions and refusals ("What the server accepts", reference notes).
 */
export function bodyOf<T>(req: OpRequest): Partial<T> {
  if (req.body === undefined || req.body === null) return {};
  const schema = getOperation(req.operationId).requestBody?.schema;
  if (!schema) return typeof req.body === 'object' ? (req.body as Partial<T>) : {};
  return readRequestBody(schema, req.body) as Partial<T>;
}

type Member<T> = T | undefined;

/**
 * A member of a loosely typed request record (`file` of FileSaveRequest, whose schema gives no members):
 * absent (also for null), or converted to the type asked by the same rules as every schema member
 * (server/coerce.ts, "What the server accepts"), else refused INVALIDDATA naming it (NEG-04).
 */
export function member(record: Record<string, unknown> | undefined, key: string, type: 'string', property: string): Member<string>;
export function member(record: Record<string, unknown> | undefined, key: string, type: 'boolean', property: string): Member<boolean>;
export function member(record: Record<string, unknown> | undefined, key: string, type: 'integer', property: string): Member<number>;
export function member(record: Record<string, unknown> | undefined, key: string, type: 'strings', property: string): Member<string[]>;
export function member(
  record: Record<string, unknown> | undefined,
  key: string,
  type: 'string' | 'boolean' | 'integer' | 'strings',
  property: string,
): Member<string | boolean | number | string[]> {
  const v = record?.[key];
  if (v === undefined || v === null) return undefined;
  if (type === 'strings') {
    if (!Array.isArray(v)) throw new Refusal('INVALIDDATA', `${property}: must be an array of strings`, property);
    return v.map((item, i) => {
      const read = readScalar('string', item);
      if (!('value' in read))
        throw new Refusal('INVALIDDATA', `${property}.${i}: ${'refused' in read ? read.refused : 'must not be null'}`, `${property}.${i}`);
      return read.value as string;
    });
  }
  const read = readScalar(type, v);
  if ('refused' in read) throw new Refusal('INVALIDDATA', `${property}: ${read.refused}`, property);
  return 'value' in read ? read.value : undefined;
}

/** The view a `nodeId` asks for; undefined for 0 or absent ("no channel"); unknown nodes are refused NOTFOUND. */
export function nodeView(state: State, nodeId: number | undefined, property = 'nodeId'): View | undefined {
  if (nodeId === undefined || nodeId === 0) return undefined;
  if (!state.nodes.has(nodeId)) throw new Refusal('NOTFOUND', `node ${nodeId} not found`, property);
  return viewOf(state, nodeId);
}

/** Options of resolveObject. */
export interface ResolveOptions {
  kinds: readonly Kind[];
  /** The view to resolve in; absent: the object itself, seen in the view of its own node. */
  view?: View;
  /** With `include`/`only` a deleted object resolves (listings of wastebin content); default exclude. */
  wastebin?: Wastebin;
  /** The request field naming the id, for refusals. */
  property?: string;
  /** What the id names, for messages ("folder", "file"). */
  what: string;
  faults: FaultSet;
}

/**
 * Resolves a local or global id (ENV-05) to the object a view sees and that view. In a channel view,
 * an id of any variant gives the variant visible there. Unknown, invisible or deleted objects are NOTFOUND
 * ("Loading a deleted object by id gives NOTFOUND", reference notes).
 */
export function resolveObject(state: State, ref: string | number | undefined, o: ResolveOptions): { obj: Obj; view: View } {
  if (ref === undefined || ref === '') throw new Refusal('INVALIDDATA', `${o.what} id missing`, o.property);
  const plan = planted.resolveObject(o.faults);
  const text = String(ref).trim();
  plan.lookingUp(text, o.what, o.property);
  const found = lookup(state, text);
  if (!found || !o.kinds.includes(found.kind)) throw new Refusal('NOTFOUND', `${o.what} ${text} not found`, o.property);
  let obj: Obj | undefined = found;
  const view = o.view ?? viewOf(state, found.nodeId);
  if (o.view) {
    obj = resolveInView(state, found.channelSetId, view);
    if (!obj || !ancestorsVisible(state, obj, view))
      throw new Refusal('NOTFOUND', `${o.what} ${text} not found in node ${view.nodeId}`, o.property);
  }
  const wastebin = plan.wastebin(o.wastebin ?? 'exclude');
  if (plan.refusesDeleted(wastebin === 'exclude' && inWastebin(state, obj, view), o.property)) {
    throw new Refusal('NOTFOUND', `${o.what} ${text} not found (it is in the wastebin)`, o.property);
  }
  return { obj, view };
}

/** Names are refused when they could escape a folder or are unusable: empty, `/`, `\`, `..` segments, NUL or control characters, over 255 characters. */
export function checkName(name: unknown, property: string, what: string): string {
  if (typeof name !== 'string' || name.trim() === '') throw new Refusal('INVALIDDATA', `${what}: a name is required`, property);
  // eslint-disable-next-line no-control-regex
  if (/[/\\\u0000-\u001f\u007f]/.test(name) || name === '..' || name === '.') {
    throw new Refusal('INVALIDDATA', `${what}: "${name}" must not contain path separators, ".." or control characters`, property);
  }
  if (name.length > 255) throw new Refusal('INVALIDDATA', `${what}: the name exceeds 255 characters`, property);
  return name;
}

/** A staging status map for list responses: empty without a package, else one entry per object's global id. */
export function stagingMap(
  state: State,
  objs: readonly Obj[],
  pkg: string | undefined,
): Record<string, { packageName: string; included: boolean }> {
  if (!pkg) return {};
  const included = state.packages.get(pkg);
  return Object.fromEntries(objs.map((o) => [o.globalId, { packageName: pkg, included: included?.has(o.id) ?? false }]));
}

/** The FolderLoadResponse `stagingStatus`: one object, naming the package when one was given, and whether it includes `obj`. */
export function stagingStatus(state: State, obj: Obj, pkg: string | undefined): { packageName?: string; included: boolean } {
  return pkg ? { packageName: pkg, included: state.packages.get(pkg)?.has(obj.id) ?? false } : { included: false };
}

/**
 * Names of live objects of the given kinds in a folder set that conflict with a node (same node tree
 * line), lower-cased; asked one name at a time through the folder's name index (state.ts takenNames).
 */
export function namesInFolder(
  state: State,
  parentSet: number,
  kinds: readonly ('folder' | 'file' | 'image' | 'page')[],
  nodeId: number,
  exceptSet?: number,
): TakenNames {
  return takenNames(state, parentSet, kinds, nodeId, exceptSet);
}
