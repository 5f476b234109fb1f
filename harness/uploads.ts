/**
 * The upload forms of contract 4.3 as the upload and files suites send them, and the reads that judge them: the
 * contract has no download operation, so a file's `fileSize` (in the answer and on load) is the oracle.
 */
import type { CallSpec } from './api.ts';
import { finding, isRefusal, type Finding } from './checks.ts';
import { attempt, fileSummary, filesOf, type Attempt } from './steps.ts';
import type { ConformanceContext } from './suite.ts';
import type { FileUploadResponse } from '../schemas/types.ts';

/** The create forms that take the file's bytes in the request. */
export type UploadForm = 'file.create.multipart' | 'file.createSimple.multipart' | 'file.createSimple.raw';

/** Every create form that carries the bytes itself. */
export const UPLOAD_FORMS: readonly UploadForm[] = ['file.create.multipart', 'file.createSimple.multipart', 'file.createSimple.raw'];

/** The request of one create form for `data` of `contentType` named `name` in `folderId` (multipart data part `fileBinaryData`). */
export function uploadSpec(
  form: UploadForm,
  folderId: number,
  name: string,
  data: Uint8Array,
  query: Record<string, string | boolean> = {},
  contentType = 'application/octet-stream',
): CallSpec {
  if (form === 'file.create.multipart') {
    return {
      multipart: {
        fields: { folderId: String(folderId), fileName: name },
        files: [{ name: 'fileBinaryData', filename: name, contentType, data }],
      },
    };
  }
  if (form === 'file.createSimple.multipart') {
    return {
      query: { folderId, qqfile: name, ...query },
      multipart: { files: [{ name: 'fileBinaryData', filename: name, contentType, data }] },
    };
  }
  return { query: { folderId, qqfile: name, ...query }, raw: { contentType, data } };
}

/** Creates a file named `name` in `folderId` from `data` (of `contentType`) through one form. */
export function uploadWith(
  t: ConformanceContext,
  form: UploadForm,
  folderId: number,
  name: string,
  data: Uint8Array,
  query: Record<string, string | boolean> = {},
  contentType?: string,
): Promise<Attempt<FileUploadResponse>> {
  return attempt(t, form, uploadSpec(form, folderId, name, data, query, contentType));
}

/**
 * UPL-01/UPL-07: the answer of a create carries the file with the name, folder and size sent; and
 * load shows the same size (what the server stored, not what it echoed).
 */
export async function checkCreated(
  t: ConformanceContext,
  requirement: string,
  created: Attempt<FileUploadResponse>,
  expected: { name?: string; folderId: number; size: number; acceptsName?: (name: string | undefined) => boolean },
): Promise<Finding[]> {
  const { exchange, body } = created;
  if (!body) return created.findings;
  const file = body.file;
  const findings: Finding[] = [];
  // "FileUploadResponse: success (boolean), file (File)"
  if (body.success !== true)
    findings.push(
      finding(requirement, 'model', `expected success true in the upload answer, got ${JSON.stringify(body.success)}`, exchange),
    );
  if (!file || typeof file.id !== 'number')
    return [...findings, finding(requirement, 'model', 'the upload answer carries no file with an id', exchange)];
  const wrong: string[] = [];
  if (expected.name !== undefined && !(expected.acceptsName ?? ((name) => name === expected.name))(file.name))
    wrong.push(`name ${JSON.stringify(file.name)} (sent ${JSON.stringify(expected.name)})`);
  if (file.folderId !== expected.folderId) wrong.push(`folderId ${file.folderId} (sent ${expected.folderId})`);
  if (file.fileSize !== expected.size) wrong.push(`fileSize ${file.fileSize} (sent ${expected.size} bytes)`);
  if (wrong.length) findings.push(finding(requirement, 'model', `the created file has ${wrong.join(', ')}`, exchange));
  const loaded = await attempt(t, 'file.load', { path: { id: file.id } });
  const stored = loaded.body?.file;
  findings.push(...loaded.findings);
  if (loaded.body && stored?.fileSize !== expected.size) {
    findings.push(
      finding(
        requirement,
        'model',
        `file ${file.id} was created from ${expected.size} bytes but load reports fileSize ${stored?.fileSize}`,
        loaded.exchange,
      ),
    );
  }
  return findings;
}

/**
 * Whether a create that a correct server may refuse (an open choice: empty content, a size limit) was
 * refused, said as nothing to judge; a 5xx is no such refusal (the judge reports it, ENV-08). The caller
 * still checks that the refused create left nothing behind (refusedLeftNothing).
 */
export function refusedAsAllowed(t: ConformanceContext, created: Attempt<FileUploadResponse>, what: string, choice: string): boolean {
  const status = created.exchange.response?.status;
  if (created.body || status === undefined || status >= 500 || !isRefusal(created.exchange)) return false;
  t.nothingToJudge(`${what} was refused, as a server may (open choice ${choice})`, created.exchange);
  return true;
}

/** After a refused create: the folder lists no file of that name (a refusal creates nothing). */
export async function refusedLeftNothing(t: ConformanceContext, requirement: string, folderId: number, name: string): Promise<Finding[]> {
  const listed = await filesOf(t, folderId);
  const left = (listed.body ?? []).filter((f) => f.name === name);
  return [
    ...listed.findings,
    ...(left.length
      ? [
          finding(
            requirement,
            'model',
            `the create of ${JSON.stringify(name)} was refused, yet folder ${folderId} lists ${fileSummary(left[0])}`,
            listed.exchange,
          ),
        ]
      : []),
  ];
}

/**
 * The id of the file a successful create made: from the answer's `file`, else (a server may answer
 * without it: contract 2.1 shows no presence flags) the file of that name its folder lists; undefined,
 * with the finding saying so, when neither shows one, or with the create's own findings when it failed.
 */
export async function createdId(
  t: ConformanceContext,
  requirement: string,
  created: Attempt<FileUploadResponse>,
  folderId: number,
  name: string,
): Promise<{ id?: number; findings: Finding[] }> {
  if (!created.body) return { findings: created.findings };
  const id = created.body.file?.id;
  if (typeof id === 'number') return { id, findings: [] };
  const listed = await filesOf(t, folderId);
  const found = (listed.body ?? []).find((f) => f.name === name)?.id;
  if (typeof found === 'number') return { id: found, findings: [] };
  return {
    findings: [
      ...listed.findings,
      finding(
        requirement,
        'model',
        `the create of ${JSON.stringify(name)} succeeded, yet its answer carries no file and folder ${folderId} lists no file of that name`,
        listed.body ? listed.exchange : created.exchange,
      ),
    ],
  };
}
