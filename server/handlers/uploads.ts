/**
 * Uploads of contract 4.3: POST /file/create (multipart and JSON from `sourceURL`), POST
 * /file/createSimple (multipart and raw body) and POST /file/save/{id} (multipart). Part names and
 * naming rules follow the reference notes; bytes are kept exactly (UPL-07).
 */
import { MEDIA_TYPES } from '../../schemas/media-types.ts';
import type { FileCreateRequest } from '../../schemas/types.ts';
import {
  allocateId,
  globalIdFor,
  insertObject,
  nowSeconds,
  setsNamed,
  type FileObj,
  type FolderObj,
  type State,
  type View,
} from '../state.ts';
import { Refusal, type Handler, type HandlerContext, type OpRequest, type UploadPart } from '../types.ts';
import { bodyOf, checkName, nodeView, qBool, qInt, qStr, resolveObject } from './common.ts';
import { takenFileNames } from './files.ts';
import { uniqueFileName } from './mutations.ts';
import * as planted from './planted/uploads.ts';
import { fileRecord } from './render.ts';

/** Names of the data part, compared ignoring case (reference notes). */
const DATA_PARTS = ['filebinarydata', 'filedata', 'files[]', 'qqfile'];

/** The media type a file name's extension suggests, if known. */
export function typeOfName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  const ext = name.slice(dot + 1).toLowerCase();
  // Own members only: `a.__proto__` or `a.constructor` names no media type (an object's inherited members are none).
  return dot > 0 && Object.hasOwn(MEDIA_TYPES, ext) ? MEDIA_TYPES[ext] : undefined;
}

/**
 * The name with an extension from the media type added when it has none (reference notes); the contract
 * leaves it open (open choice extension-from-media-type).
 */
function withExtension(name: string, mediaType: string, plan: planted.CreatePlan): string {
  if (name.lastIndexOf('.') > 0) return name;
  const ext = plan.extension(Object.entries(MEDIA_TYPES).find(([, t]) => t === mediaType.toLowerCase())?.[0], mediaType);
  return ext ? `${name}.${ext}` : name;
}

/** The bare media type of a Content-Type value. */
function bareType(contentType: string | undefined): string | undefined {
  const t = contentType?.split(';')[0]?.trim().toLowerCase();
  return t && t !== '*/*' ? t : undefined;
}

/** The data part of a multipart body: its name, ignoring case, is one of the known names or `databodypart`. */
function dataPart(req: OpRequest, custom: string | undefined, plan: planted.PartPlan): UploadPart {
  const names = custom ? [custom.toLowerCase(), ...DATA_PARTS] : DATA_PARTS;
  const part = plan.dataPart(req.multipart?.files.find((p) => names.includes(p.fieldName.toLowerCase())));
  if (!part)
    throw new Refusal(
      'INVALIDDATA',
      `no file data part: send the data as one of fileBinaryData, Filedata, files[], qqfile${custom ? ` or ${custom}` : ''}`,
      custom ?? 'fileBinaryData',
    );
  return part;
}

function boolText(value: string | undefined, property: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^(true|false)$/i.test(value.trim())) throw new Refusal('INVALIDDATA', `${property}: "${value}" is not true or false`, property);
  return value.trim().toLowerCase() === 'true';
}

function intText(value: string | undefined, property: string, plan: planted.PartPlan): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const pattern = plan.idPattern(/^\d+$/);
  // Any safe integer: ids of 16 digits (up to 2^53 - 1) are ids too.
  if (!pattern.test(value.trim()) || !Number.isSafeInteger(Number(value.trim())))
    throw new Refusal('INVALIDDATA', `${property}: "${value}" is not an id`, property);
  return Number(value.trim());
}

/** What an upload asks for, validated, before anything changes. */
interface ValidUpload {
  folder: FolderObj;
  view: View;
  /** The kind of object a new file is. */
  kind: 'file' | 'image';
  name: string;
  data: Buffer;
  fileType: string;
  description?: string;
  /** Replace the content of the file with exactly this name. */
  overwrite?: FileObj;
  niceUrl?: string;
  alternateUrls?: string[];
}

/** What an upload request gives, before validation; `nameProperty` is the request field naming the file. */
interface UploadRequest {
  folderId: string | number | undefined;
  nodeId?: number;
  name: string;
  data: Buffer;
  fileType: string;
  description?: string;
  overwrite?: boolean;
  failOnDuplicate?: boolean;
  nameProperty: string;
  niceUrl?: string;
  alternateUrls?: string[];
}

/**
 * Validates an upload: the folder (local or global id, in the view of `nodeId`), the name (path
 * traversal refused) and the duplicate rule: overwrite replaces the same-name file, failOnDuplicate
 * refuses INVALIDDATA `fileName`, otherwise the name becomes `base_1.ext` (UPL-05).
 */
function validateUpload(state: State, ctx: HandlerContext, plan: planted.CreatePlan, a: UploadRequest): ValidUpload {
  if (a.folderId === undefined || a.folderId === '')
    throw new Refusal('INVALIDDATA', 'folderId: the folder to create the file in is required', 'folderId');
  const explicit = nodeView(state, a.nodeId);
  const { obj, view } = resolveObject(state, a.folderId, {
    kinds: ['folder'],
    view: explicit,
    what: 'folder',
    faults: ctx.faults,
    property: 'folderId',
  });
  const folder = obj as FolderObj;
  const wanted = checkName(a.name, a.nameProperty, 'file');
  // Uploads create files (never images), so every upload is listed by getFiles and GET /file.
  const kind = plan.kind('file', a.fileType);
  const taken = plan.taken(takenFileNames(state, folder, view.nodeId), state, folder, view.nodeId, kind);
  let name = wanted;
  let overwrite: FileObj | undefined;
  if (plan.replaces(a.overwrite)) {
    const index = plan.children(state.children.get(folder.channelSetId));
    // The folder's sets of the kinds an overwrite replaces, in the folder's order.
    const held = new Set(plan.replaceable(['file']).flatMap((k) => [...(index?.[k] ?? [])]));
    const match = (set: number) =>
      state.sets.get(set)?.find((o) => plan.inView(o.nodeId === view.nodeId) && o.name === wanted && !o.deleted);
    // The name index gives the candidates; only several matches need the folder's order (the last one wins).
    const found = setsNamed(state, folder.channelSetId, wanted.toLowerCase()).filter((set) => plan.candidate(held.has(set)) && match(set));
    if (found.length === 1) overwrite = match(found[0]!) as FileObj;
    else if (found.length > 1)
      for (const set of held) {
        const v = match(set);
        if (v) overwrite = v as FileObj;
      }
  }
  plan.placing(state, folder, view, explicit, overwrite);
  if (!overwrite && taken.has(wanted.toLowerCase())) {
    if (plan.duplicateRefused(a.failOnDuplicate))
      throw new Refusal('INVALIDDATA', `a file named "${wanted}" already exists in the folder`, a.nameProperty);
    name = uniqueFileName(plan.collisionName(wanted), taken);
  }
  return {
    folder,
    view,
    kind,
    name,
    data: a.data,
    fileType: a.fileType,
    ...(overwrite ? { overwrite } : {}),
    ...(a.description === undefined ? {} : { description: a.description }),
    ...(a.niceUrl ? { niceUrl: a.niceUrl } : {}),
    ...(a.alternateUrls ? { alternateUrls: a.alternateUrls } : {}),
  };
}

/** Carries out a validated upload and answers the FileUploadResponse members. */
function executeUpload(state: State, ctx: HandlerContext, plan: planted.CreatePlan, upload: ValidUpload): Record<string, unknown> {
  plan.storing(upload.data);
  const now = nowSeconds(state);
  const data = plan.data(upload.data);
  let file: FileObj;
  if (upload.overwrite) {
    file = upload.overwrite;
    Object.assign(file, { data: Buffer.from(data), fileType: upload.fileType, edate: now, editorId: state.requesterId });
    if (plan.describes(upload.description !== undefined)) file.description = upload.description ?? file.description;
  } else {
    const id = allocateId(state);
    file = {
      kind: upload.kind,
      id,
      globalId: globalIdFor(id),
      nodeId: upload.view.nodeId,
      channelSetId: id,
      parentSet: upload.folder.channelSetId,
      name: upload.name,
      description: upload.description ?? '',
      cdate: now,
      edate: now,
      creatorId: state.requesterId,
      editorId: state.requesterId,
      data: Buffer.from(data),
      fileType: upload.fileType,
      online: false,
      forceOnline: false,
      ...(upload.niceUrl ? { niceUrl: upload.niceUrl } : {}),
      ...(upload.alternateUrls ? { alternateUrls: [...upload.alternateUrls] } : {}),
    };
    insertObject(state, file);
  }
  return { success: true, file: fileRecord({ state, view: upload.view, faults: ctx.faults }, file) };
}

/** POST /file/create (multipart): data part and text parts folderId, nodeId, fileName, description, overwrite, failOnDuplicate (UPL-01). */
export const createMultipart: Handler<State> = (state, req, ctx) => {
  const plan = planted.createMultipart(ctx.faults);
  const fields = plan.fields(req.multipart?.fields ?? {});
  const part = dataPart(req, fields.databodypart, plan);
  return plan.sniffed(part, state, req, ctx, createFromUrl) ?? createFromParts(state, ctx, plan, fields, part);
};

/** The multipart create of the file whose content is the data `part`, as the text parts `fields` ask. */
function createFromParts(
  state: State,
  ctx: HandlerContext,
  plan: planted.CreateMultipartPlan,
  fields: Record<string, string>,
  part: UploadPart,
): Record<string, unknown> {
  const fileType = part.mimeType || 'application/octet-stream';
  const given = fields.fileName || part.filename || 'new_file';
  const name = plan.name(withExtension(given, fileType, plan), given);
  const upload = validateUpload(state, ctx, plan, {
    folderId: fields.folderId,
    nodeId: intText(fields.nodeId, 'nodeId', plan),
    name,
    data: part.data,
    fileType,
    description: fields.description,
    overwrite: boolText(fields.overwrite, 'overwrite'),
    failOnDuplicate: boolText(fields.failOnDuplicate, 'failOnDuplicate'),
    nameProperty: 'fileName',
  });
  return executeUpload(state, ctx, plan, upload);
}

/** POST /file/createSimple (multipart): `databodypart` names the data part, `qqfile` the file (UPL-04). */
export const createSimpleMultipart: Handler<State> = (state, req, ctx) => {
  const plan = planted.createSimpleMultipart(ctx.faults);
  const fields = req.multipart?.fields ?? {};
  const part = dataPart(req, plan.dataPartName(qStr(req, 'databodypart') ?? fields.databodypart), plan);
  const fileType = part.mimeType || 'application/octet-stream';
  const qqfile = plan.qqfile(qStr(req, 'qqfile'));
  const name = withExtension(plan.given(qqfile || fields.fileName || part.filename || 'new_file', part), fileType, plan);
  plan.naming(qqfile);
  const upload = validateUpload(state, ctx, plan, {
    folderId: qStr(req, 'folderId') || fields.folderId,
    nodeId: intText(qStr(req, 'nodeId') ?? fields.nodeId, 'nodeId', plan),
    name,
    data: part.data,
    fileType,
    description: plan.description(qStr(req, 'description')) ?? fields.description,
    // `overwrite` is a query parameter of createSimple (contract 4.3), whose declared default false the server fills in.
    overwrite: plan.overwrite(qBool(req, 'overwrite', false), req),
    failOnDuplicate: boolText(fields.failOnDuplicate, 'failOnDuplicate'),
    nameProperty: 'fileName',
  });
  return executeUpload(state, ctx, plan, upload);
};

/**
 * POST /file/createSimple (raw body): `qqfile` names the file and is required (UPL-03). `folderId`
 * ("required int") is a Java primitive there: "`createSimple` without `folderId` looks for folder 0,
 * which does not exist, and is refused as not found" (reference notes).
 */
export const createSimpleRaw: Handler<State> = (state, req, ctx) => {
  const plan = planted.createSimpleRaw(ctx.faults);
  const qqfile = qStr(req, 'qqfile');
  if (!qqfile) throw new Refusal('INVALIDDATA', 'qqfile: the file name is required', 'qqfile');
  const folderId = plan.folderId(qInt(req, 'folderId', 0), state);
  const fileType = plan.nameType(typeOfName(qqfile), qqfile) ?? bareType(req.raw?.contentType) ?? 'application/octet-stream';
  const upload = validateUpload(state, ctx, plan, {
    folderId,
    nodeId: qInt(req, 'nodeId', 0),
    name: plan.name(qqfile, fileType, withExtension),
    data: req.raw?.data ?? Buffer.alloc(0),
    fileType,
    description: plan.description(qStr(req, 'description')),
    overwrite: plan.overwrite(qBool(req, 'overwrite', false), req),
    nameProperty: 'qqfile',
  });
  return executeUpload(state, ctx, plan, upload);
};

/** Downloads a URL over http(s) only, within the state's timeout and size limit; failures are refused INVALIDDATA `sourceURL`. */
async function download(
  state: State,
  source: string,
  plan: planted.DownloadPlan,
): Promise<{ data: Buffer; contentType?: string; name?: string }> {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new Refusal('INVALIDDATA', `sourceURL: "${source}" is not a URL`, 'sourceURL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Refusal('INVALIDDATA', 'sourceURL: only http and https URLs are loaded', 'sourceURL');
  const refuse = (why: string) => new Refusal('INVALIDDATA', `sourceURL: ${why}`, 'sourceURL');
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), state.sourceUrlTimeoutMs);
  try {
    const res = await fetch(url, { signal: controller.signal, redirect: 'follow' });
    if (plan.failed(!res.ok)) throw refuse(`the server answered HTTP ${res.status}`);
    if (!/^https?:$/.test(new URL(res.url || url.href).protocol)) throw refuse('redirected away from http(s)');
    const declared = Number(res.headers.get('content-length'));
    if (declared > state.sourceUrlMaxBytes) throw refuse(`the content exceeds ${state.sourceUrlMaxBytes} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body ?? plan.noBody([], res.status)) {
      size += (chunk as Uint8Array).length;
      if (size > state.sourceUrlMaxBytes) throw refuse(`the content exceeds ${state.sourceUrlMaxBytes} bytes`);
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    const segment = url.pathname.split('/').pop() ?? '';
    let last = segment;
    try {
      last = decodeURIComponent(segment);
    } catch {
      // A malformed escape stays as sent; checkName decides whether it is usable.
    }
    return {
      data: Buffer.concat(chunks),
      ...(res.headers.get('content-type') ? { contentType: res.headers.get('content-type')! } : {}),
      ...(last ? { name: last } : {}),
    };
  } catch (err) {
    if (err instanceof Refusal) throw err;
    throw refuse(
      controller.signal.aborted ? `no answer within ${state.sourceUrlTimeoutMs} ms` : `could not be loaded (${(err as Error).message})`,
    );
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** POST /file/create (JSON): the file's data is downloaded from `sourceURL` (UPL-02). */
export const createFromUrl: Handler<State> = async (state, req, ctx) => {
  const plan = planted.createFromUrl(ctx.faults);
  const b = plan.body(bodyOf<FileCreateRequest>(req));
  if (!b.sourceURL) throw new Refusal('INVALIDDATA', 'sourceURL: required', 'sourceURL');
  const validate = (data: Buffer, name: string, fileType: string) =>
    validateUpload(state, ctx, plan, {
      folderId: b.folderId,
      nodeId: b.nodeId,
      name,
      data,
      fileType,
      ...(b.description === undefined ? {} : { description: b.description }),
      overwrite: b.overwriteExisting ?? false,
      nameProperty: 'name',
      ...(b.niceURL ? { niceUrl: b.niceURL } : {}),
      ...(b.alternateURLs ? { alternateUrls: b.alternateURLs } : {}),
    });
  // Validate before downloading (a refused request fetches nothing), and again after: the store may have changed meanwhile.
  validate(Buffer.alloc(0), b.name || 'new_file', 'application/octet-stream');
  const got = await download(state, b.sourceURL, plan);
  const fileType = bareType(got.contentType) ?? typeOfName(b.name || got.name || '') ?? 'application/octet-stream';
  const name = withExtension(plan.name(b.name || got.name, got.name) || 'new_file', fileType, plan);
  return executeUpload(state, ctx, plan, validate(got.data, name, fileType));
};

/** Replaces the content of `file` with the data `part` (and its description, when a part gives one). */
function storeContent(state: State, file: FileObj, part: UploadPart, description: string | undefined, plan: planted.ContentPlan): void {
  plan.storing(part.data);
  file.data = Buffer.from(part.data);
  file.fileType = part.mimeType || file.fileType;
  if (description !== undefined) file.description = description;
  file.edate = nowSeconds(state);
  file.editorId = state.requesterId;
}

/** POST /file/save/{id} (multipart): the data part replaces the content, the id stays (UPL-06). */
export const saveMultipart: Handler<State> = (state, req, ctx) => {
  const plan = planted.saveMultipart(ctx.faults);
  const fields = req.multipart?.fields ?? {};
  const view = nodeView(state, intText(fields.nodeId, 'nodeId', plan) ?? qInt(req, 'nodeId'));
  const { obj } = resolveObject(state, req.path.id, { kinds: ['file', 'image'], view, what: 'file', faults: ctx.faults, property: 'id' });
  const part = dataPart(req, fields.databodypart, plan);
  plan.store(storeContent)(state, obj as FileObj, part, fields.description, plan);
  return {};
};
