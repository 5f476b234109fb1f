/**
 * Malformed multipart bodies (UPL-08, robustness): each is sent to both multipart create forms; it
 * must be refused (never a 5xx) and create nothing, which the folder's listing before and after shows.
 */
import type { OperationId } from '../../harness/api.ts';
import { checkRefused, finding, type Finding } from '../../harness/checks.ts';
import { fileSummary, filesOf } from '../../harness/steps.ts';
import { conformance, type ConformanceContext } from '../../harness/suite.ts';
import type { RequestSpec } from '../../harness/transport.ts';
import { boundaryFor, multipartBody, multipartType, type BodyPart } from '../../harness/multipart.ts';
import { truncatedBody } from './lookalikes.ts';

/** The parts of a well-formed create: folder, name and a data part. */
function createParts(folderId: number, name: string): BodyPart[] {
  return [
    { name: 'folderId', data: String(folderId) },
    { name: 'fileName', data: name },
    { name: 'fileBinaryData', filename: name, contentType: 'application/octet-stream', data: 'malformed upload payload\r\n'.repeat(8) },
  ];
}

/**
 * Sends one malformed body to POST /file/create and POST /file/createSimple (folderId also in the query,
 * where createSimple takes it) and checks each is refused and the folder holds the same files after.
 */
async function sendMalformed(
  t: ConformanceContext,
  what: string,
  build: (folderId: number, name: string) => { contentType: string; data: Uint8Array },
): Promise<void> {
  const folderId = await t.folder();
  const findings: Finding[] = [];
  const before = await filesOf(t, folderId);
  const forms: [string, OperationId][] = [
    ['/file/create', 'file.create.multipart'],
    ['/file/createSimple', 'file.createSimple.multipart'],
  ];
  for (const [path, op] of forms) {
    const name = `upl08-${path.slice(6).toLowerCase()}.txt`;
    const spec: RequestSpec = {
      method: 'POST',
      path,
      query: path === '/file/createSimple' ? { folderId, qqfile: name } : {},
      raw: build(folderId, name),
    };
    // "a malformed multipart body ... is refused, creates nothing, and is never a 5xx"
    findings.push(...checkRefused(await t.send(spec, op), 'UPL-08', `${what} must be refused`));
  }
  const after = await filesOf(t, folderId);
  if (before.body && after.body && after.body.length !== before.body.length) {
    findings.push(
      finding('UPL-08', 'model', `${what} created files: the folder lists ${after.body.map(fileSummary).join(', ')}`, after.exchange),
    );
  }
  t.record([...findings, ...before.findings, ...after.findings]);
}

conformance('UPL-08', 'a multipart body whose Content-Type has no boundary is refused and creates nothing', async (t) => {
  await sendMalformed(t, 'a multipart body without a boundary parameter', (folderId, name) => {
    const parts = createParts(folderId, name);
    return { contentType: 'multipart/form-data', data: multipartBody(parts, boundaryFor(parts)) };
  });
});

conformance('UPL-08', 'a multipart body cut inside its data part is refused and creates nothing', async (t) => {
  await sendMalformed(t, 'a multipart body truncated inside its data part', (folderId, name) => {
    const parts = createParts(folderId, name);
    const boundary = boundaryFor(parts);
    return { contentType: multipartType(boundary), data: truncatedBody(multipartBody(parts, boundary), boundary) };
  });
});

conformance('UPL-08', 'a multipart body without a data part is refused and creates nothing', async (t) => {
  await sendMalformed(t, 'a multipart body with text fields but no data part', (folderId, name) => {
    const parts = createParts(folderId, name).slice(0, 2);
    const boundary = boundaryFor(parts);
    return { contentType: multipartType(boundary), data: multipartBody(parts, boundary) };
  });
});
