/**
 * The upload forms of contract 4.3 as the upload suites send them, and the reads that judge them: the
 * contract has no download operation, so a file's `fileSize` (in the answer and on load) is the oracle.
 */
import { problemOf, requestOf, stepFinding, type CallSpec, type OperationId, type ResponseOf } from '../../harness/api.ts';
import type { Finding } from '../../harness/checks.ts';
import type { ConformanceContext } from '../../harness/suite.ts';
import type { Exchange } from '../../harness/transport.ts';
import type { File, FileUploadResponse } from '../../schemas/types.ts';

/** The create forms that take the file's bytes in the request. */
export type UploadForm = 'file.create.multipart' | 'file.createSimple.multipart' | 'file.createSimple.raw';

/** Every create form that carries the bytes itself. */
export const UPLOAD_FORMS: readonly UploadForm[] = ['file.create.multipart', 'file.createSimple.multipart', 'file.createSimple.raw'];

/** The outcome of one step inside a property: the typed body, or the finding saying why there is none. */
export interface Step<T> {
  exchange: Exchange;
  body?: T;
  findings: Finding[];
}

/**
 * Sends one operation and returns its body or a step finding, without recording it: inside a property
 * the findings go back to fast-check, which shrinks the case and records the smallest.
 */
export async function step<K extends OperationId>(t: ConformanceContext, operationId: K, spec: CallSpec = {}): Promise<Step<ResponseOf[K]>> {
  const exchange = await t.send(requestOf(operationId, spec));
  const problem = problemOf(exchange);
  if (problem) return { exchange, findings: [stepFinding(t.requirement, operationId, exchange, problem)] };
  return { exchange, body: exchange.response!.json as ResponseOf[K], findings: [] };
}

/** The request of one create form for `data` named `name` in `folderId` (multipart data part `fileBinaryData`). */
export function uploadSpec(form: UploadForm, folderId: number, name: string, data: Uint8Array, query: Record<string, string | boolean> = {}): CallSpec {
  const contentType = 'application/octet-stream';
  if (form === 'file.create.multipart') {
    return { multipart: { fields: { folderId: String(folderId), fileName: name }, files: [{ name: 'fileBinaryData', filename: name, contentType, data }] } };
  }
  if (form === 'file.createSimple.multipart') {
    return { query: { folderId, qqfile: name, ...query }, multipart: { files: [{ name: 'fileBinaryData', filename: name, contentType, data }] } };
  }
  return { query: { folderId, qqfile: name, ...query }, raw: { contentType, data } };
}

/** Creates a file named `name` in `folderId` from `data` through one form. */
export function uploadWith(t: ConformanceContext, form: UploadForm, folderId: number, name: string, data: Uint8Array, query: Record<string, string | boolean> = {}): Promise<Step<FileUploadResponse>> {
  return step(t, form, uploadSpec(form, folderId, name, data, query));
}

/** The files of a folder (getFiles, all of them). */
export async function filesOf(t: ConformanceContext, folderId: number): Promise<Step<File[]>> {
  const listed = await step(t, 'folder.getFiles', { path: { folderId }, query: { maxItems: -1 } });
  return { ...listed, body: listed.body ? (listed.body.files ?? []) : undefined };
}

/** A file record as the model compares it. */
export function summary(f: File | undefined): string {
  return f ? `{id ${f.id}, name ${JSON.stringify(f.name)}, folderId ${f.folderId}, fileSize ${f.fileSize}}` : 'no file';
}

/** A failed check of the model oracle. */
export function modelFinding(requirement: string, message: string, exchange?: Exchange): Finding {
  return { requirement, check: 'model', severity: 'error', message, exchange };
}

/**
 * UPL-01/UPL-07: the answer of a create carries the file with the name, folder and size sent; and
 * load shows the same size (what the server stored, not what it echoed).
 */
export async function checkCreated(t: ConformanceContext, requirement: string, created: Step<FileUploadResponse>, expected: { name?: string; folderId: number; size: number }): Promise<Finding[]> {
  const { exchange, body } = created;
  if (!body) return created.findings;
  const file = body.file;
  const findings: Finding[] = [];
  // "FileUploadResponse: success (boolean), file (File)"
  if (body.success !== true) findings.push(modelFinding(requirement, `expected success true in the upload answer, got ${JSON.stringify(body.success)}`, exchange));
  if (!file || typeof file.id !== 'number') return [...findings, modelFinding(requirement, 'the upload answer carries no file with an id', exchange)];
  const wrong: string[] = [];
  if (expected.name !== undefined && file.name !== expected.name) wrong.push(`name ${JSON.stringify(file.name)} (sent ${JSON.stringify(expected.name)})`);
  if (file.folderId !== expected.folderId) wrong.push(`folderId ${file.folderId} (sent ${expected.folderId})`);
  if (file.fileSize !== expected.size) wrong.push(`fileSize ${file.fileSize} (sent ${expected.size} bytes)`);
  if (wrong.length) findings.push(modelFinding(requirement, `the created file has ${wrong.join(', ')}`, exchange));
  const loaded = await step(t, 'file.load', { path: { id: file.id } });
  const stored = loaded.body?.file;
  findings.push(...loaded.findings);
  if (loaded.body && stored?.fileSize !== expected.size) {
    findings.push(modelFinding(requirement, `file ${file.id} was created from ${expected.size} bytes but load reports fileSize ${stored?.fileSize}`, loaded.exchange));
  }
  return findings;
}
