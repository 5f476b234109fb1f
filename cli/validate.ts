/** `cms-conformance validate`: judges recorded response bodies, or a HAR capture, against the contract. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, parseOptions, type Command, type OptionTable } from './args.ts';
import { isRefusal, responseCode, type Finding } from '../harness/checks.ts';
import { findingLine, observe } from '../harness/registry.ts';
import { judge } from '../harness/judge.ts';
import { getOperation, operations } from '../schemas/operations.ts';
import type { Exchange, RecordedBody } from '../schemas/results.ts';

const OPTIONS = {
  operation: {
    type: 'string',
    value: 'ID',
    byDefault: 'none: body files need it; with --har, every operation',
    description: 'the operation the body files answer (e.g. folder.getFiles); with --har, only the exchanges of that operation',
    example: '--operation folder.getFiles body.json',
  },
  har: {
    type: 'string',
    multiple: true,
    value: 'FILE',
    byDefault: 'none',
    description: 'a HAR capture: every recorded exchange whose method and path match an operation of the contract is judged',
    example: '--har session.har',
  },
  strict: {
    type: 'boolean',
    description: 'members the contract does not name are errors, not warnings',
    example: '--strict --har session.har',
  },
} as const satisfies OptionTable;

interface Verdict {
  label: string;
  findings: Finding[];
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

interface HarHeader {
  name: string;
  value: string;
}

/** The members of a HAR 1.2 entry this command reads. */
interface HarEntry {
  time?: number;
  request?: {
    method?: string;
    url?: string;
    headers?: HarHeader[];
    postData?: { mimeType?: string; text?: string; params?: { name: string; value?: string; fileName?: string; contentType?: string }[] };
  };
  response?: { status?: number; headers?: HarHeader[]; content?: { text?: string; encoding?: string; mimeType?: string } };
}

/** Header lists as the recorded exchange keeps them: lower-case names, repeated headers joined. */
function flatHeaders(list: HarHeader[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list ?? []) {
    const name = h.name.toLowerCase();
    out[name] = out[name] === undefined ? h.value : `${out[name]}, ${h.value}`;
  }
  return out;
}

const digest = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** A HAR request body as the exchange records it: JSON and text verbatim, multipart by its parts, anything else as size and digest. */
function recordedBody(postData: NonNullable<HarEntry['request']>['postData']): RecordedBody | undefined {
  if (!postData) return undefined;
  const contentType = postData.mimeType ?? 'application/octet-stream';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const text = postData.text ?? '';
  if (type === 'multipart/form-data') {
    const params = postData.params ?? [];
    return {
      kind: 'multipart',
      fields: Object.fromEntries(params.filter((p) => p.fileName === undefined).map((p) => [p.name, p.value ?? ''])),
      files: params
        .filter((p) => p.fileName !== undefined)
        .map((p) => ({
          name: p.name,
          filename: p.fileName,
          contentType: p.contentType ?? 'application/octet-stream',
          size: Buffer.byteLength(p.value ?? ''),
          sha256: digest(p.value ?? ''),
        })),
    };
  }
  if (type === 'application/json') return { kind: 'json', text };
  if (/^(text\/|application\/(xml|x-www-form-urlencoded))/.test(type)) return { kind: 'text', contentType, text };
  return { kind: 'binary', contentType, size: Buffer.byteLength(text), sha256: digest(text) };
}

/** One HAR entry as the exchange the judge reads, the same shape the suite's transport and the proxy record. */
export function exchangeOfHarEntry(entry: HarEntry, seq: number): Exchange {
  const content = entry.response?.content;
  const text = content?.encoding === 'base64' ? Buffer.from(content.text ?? '', 'base64').toString('utf8') : (content?.text ?? '');
  const response: NonNullable<Exchange['response']> = {
    status: entry.response?.status ?? 0,
    headers: flatHeaders(entry.response?.headers),
    text,
    truncated: false,
  };
  try {
    response.json = JSON.parse(text);
  } catch (err) {
    response.jsonError = (err as Error).message;
  }
  const body = recordedBody(entry.request?.postData);
  return {
    seq,
    request: {
      method: (entry.request?.method ?? 'GET').toUpperCase(),
      url: entry.request?.url ?? '',
      headers: flatHeaders(entry.request?.headers),
      ...(body ? { body } : {}),
    },
    response,
    durationMs: Math.max(0, Math.round(entry.time ?? 0)),
  };
}

/** What a refusal is, for the verdict line: the judge checked its envelope only (contract 7). */
function refusalNote(exchange: Exchange): string | undefined {
  if (!isRefusal(exchange)) return undefined;
  const code = responseCode(exchange);
  return `refusal (status ${exchange.response!.status}${code === undefined ? '' : `, ${String(code)}`}): envelope checked`;
}

function harVerdicts(path: string, only: string | undefined, strict: boolean): Verdict[] {
  const har = parseJson(readText(path), path) as { log?: { entries?: HarEntry[] } };
  if (!Array.isArray(har?.log?.entries)) throw new UsageError(`${path} is not a HAR file (no log.entries array)`);
  const verdicts: Verdict[] = [];
  har.log.entries.forEach((entry, i) => {
    const exchange = exchangeOfHarEntry(entry, i + 1);
    const observed = observe(exchange, { strict });
    if (!observed || (only && observed.operation.id !== only)) return;
    const note = refusalNote(exchange);
    verdicts.push({
      label: `${path}#${i} ${exchange.request.method} ${exchange.request.url} (${observed.operation.id})`,
      findings: observed.findings,
      ...(note ? { note } : {}),
    });
  });
  return verdicts;
}

/** A response body file, judged as the operation's success answer: the judge's findings, as for any exchange. */
function bodyVerdict(path: string, body: unknown, operation: string, strict: boolean): Verdict {
  const op = getOperation(operation);
  const exchange: Exchange = {
    seq: 0,
    request: { method: op.method, url: `file://${resolve(path)}`, headers: {} },
    // A file carries no status or headers: those the contract asks of a success are assumed, so only the body is judged.
    response: { status: op.response.status, headers: { 'content-type': 'application/json' }, text: '', truncated: false, json: body },
    durationMs: 0,
  };
  return { label: path, findings: judge(exchange, { operation, strict }).findings };
}

function print(v: Verdict): boolean {
  const failed = v.findings.some((f) => f.severity === 'error');
  console.log(`${failed ? 'FAIL' : 'PASS'} ${v.label}${v.note ? `  [${v.note}]` : ''}`);
  for (const f of v.findings) console.log(`    ${findingLine(f)}`);
  return failed;
}

/** The validate subcommand. */
export const command: Command = {
  summary: 'validate recorded response bodies or a HAR capture against the contract',
  options: OPTIONS,
  positionals: [
    {
      name: 'FILE',
      multiple: true,
      required: false,
      description: 'a file holding one JSON response body of the --operation, judged as its success answer',
      example: '--operation folder.load folder-7.json folder-8.json',
    },
  ],
  about: [
    "Validates response bodies against the contract: body files, or the exchanges of a HAR capture, or both. A HAR exchange goes through the judge the suite and the proxy use (status, content type, envelope, the response schema for a success or the envelope for a refusal, unknown members, no 5xx), and a listing's answer through the checks one exchange allows (paging, order, wastebin, filters against the request's own parameters).",
  ],
  exit: '0 all pass, 1 any fails, 2 usage error.',
  async run(args) {
    const { values, positionals } = parseOptions(args, OPTIONS, true);
    const strict = values.strict ?? false;
    if (values.operation && !operations.some((o) => o.id === values.operation)) {
      throw new UsageError(`unknown operation "${values.operation}"; known: ${operations.map((o) => o.id).join(', ')}`);
    }
    if (!values.har?.length && !positionals.length) throw new UsageError('give body files (with --operation) or --har FILE');
    if (positionals.length && !values.operation) throw new UsageError('body files need --operation ID');
    // Read everything before judging anything: a usage error must not come after half a report.
    const bodies = positionals.map((p) => ({ path: p, body: parseJson(readText(p), p) }));
    const verdicts: Verdict[] = bodies.map(({ path, body }) => bodyVerdict(path, body, values.operation!, strict));
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
