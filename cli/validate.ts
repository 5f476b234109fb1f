/** `cms-conformance validate`: judges recorded response bodies, or a HAR capture, against the contract. */
import { readFileSync } from 'node:fs';
import { UsageError, parseOptions, type Command } from './args.ts';
import { findOperation, operations } from '../schemas/operations.ts';
import { headerValue, validateBody, validateResponse, type SchemaFinding } from '../schemas/validate.ts';

const usage = `usage: cms-conformance validate --operation ID [--strict] FILE...
       cms-conformance validate --har FILE [--operation ID] [--strict]

Validates response bodies against the contract. Each FILE holds one JSON response body of the
operation ID (e.g. folder.getFiles). With --har, every recorded exchange whose method and path match
an operation of the contract is validated against it (status, content type, envelope, schema).
Unknown members are warnings; --strict makes them errors.
Exit: 0 all pass, 1 any fails, 2 usage error.`;

interface Verdict {
  label: string;
  findings: SchemaFinding[];
  note?: string;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

interface HarEntry {
  request?: { method?: string; url?: string; headers?: { name: string; value: string }[]; postData?: { mimeType?: string } };
  response?: { status?: number; headers?: { name: string; value: string }[]; content?: { text?: string; encoding?: string; mimeType?: string } };
}

/** Matches a recorded URL against the catalogue: the base URL is unknown, so try each path suffix. */
function operationOfUrl(method: string, url: string, contentType: string | undefined) {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const segments = pathname.split('/').filter(Boolean);
  for (let i = 0; i < segments.length; i++) {
    const op = findOperation(method, `/${segments.slice(i).join('/')}`, contentType);
    if (op) return op;
  }
  return undefined;
}

function harVerdicts(path: string, only: string | undefined, strict: boolean): Verdict[] {
  const har = parseJson(readText(path), path) as { log?: { entries?: HarEntry[] } };
  if (!Array.isArray(har?.log?.entries)) throw new UsageError(`${path} is not a HAR file (no log.entries array)`);
  const verdicts: Verdict[] = [];
  har.log.entries.forEach((entry, i) => {
    const method = entry.request?.method ?? 'GET';
    const url = entry.request?.url ?? '';
    const reqHeaders = Object.fromEntries((entry.request?.headers ?? []).map((h) => [h.name, h.value]));
    const op = operationOfUrl(method, url, entry.request?.postData?.mimeType ?? headerValue(reqHeaders, 'content-type'));
    if (!op || (only && op.id !== only)) return;
    const label = `${path}#${i} ${method} ${url} (${op.id})`;
    const content = entry.response?.content;
    const text = content?.encoding === 'base64' ? Buffer.from(content.text ?? '', 'base64').toString('utf8') : content?.text ?? '';
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      verdicts.push({ label, findings: [{ requirement: 'ENV-01', severity: 'error', instancePath: '', schemaPath: '', keyword: 'json', message: 'response body is not JSON' }] });
      return;
    }
    const headers = Object.fromEntries((entry.response?.headers ?? []).map((h) => [h.name, h.value]));
    const status = entry.response?.status;
    const code = (body as { responseInfo?: { responseCode?: unknown } })?.responseInfo?.responseCode;
    if ((status !== undefined && status >= 400) || (code !== undefined && code !== 'OK')) {
      // A recorded refusal: the contract fixes only its envelope (section 7), not a success shape.
      verdicts.push({ label, note: `refusal (status ${status}, ${String(code)}): envelope checked`, findings: validateBody('responses/GenericResponse.json', body, 'ENV-01', { strict: false }) });
      return;
    }
    verdicts.push({ label, findings: validateResponse(op.id, { status, headers, body }, { strict }) });
  });
  return verdicts;
}

function print(v: Verdict): boolean {
  const failed = v.findings.some((f) => f.severity === 'error');
  console.log(`${failed ? 'FAIL' : 'PASS'} ${v.label}${v.note ? `  [${v.note}]` : ''}`);
  for (const f of v.findings) {
    console.log(`    ${f.severity === 'error' ? 'error' : 'warning'} ${f.requirement} ${f.keyword}: ${f.message}${f.schemaPath ? `  (${f.schemaPath})` : ''}`);
  }
  return failed;
}

export const command: Command = {
  summary: 'validate recorded response bodies or a HAR capture against the contract',
  usage,
  async run(args) {
    const { values, positionals } = parseOptions(args, { operation: { type: 'string' }, strict: { type: 'boolean' }, har: { type: 'string', multiple: true } }, true);
    const strict = values.strict ?? false;
    if (values.operation && !operations.some((o) => o.id === values.operation)) {
      throw new UsageError(`unknown operation "${values.operation}"; known: ${operations.map((o) => o.id).join(', ')}`);
    }
    if (!values.har?.length && !positionals.length) throw new UsageError('give body files (with --operation) or --har FILE');
    if (positionals.length && !values.operation) throw new UsageError('body files need --operation ID');
    // Read everything before judging anything: a usage error must not come after half a report.
    const bodies = positionals.map((p) => ({ path: p, body: parseJson(readText(p), p) }));
    const verdicts: Verdict[] = bodies.map(({ path, body }) => ({ label: path, findings: validateResponse(values.operation!, { body }, { strict }) }));
    for (const har of values.har ?? []) {
      const found = harVerdicts(har, values.operation, strict);
      if (!found.length) console.error(`cms-conformance: ${har}: no exchange matches an operation of the contract`);
      verdicts.push(...found);
    }
    let failed = false;
    for (const v of verdicts) failed = print(v) || failed;
    return failed ? 1 : 0;
  },
};
