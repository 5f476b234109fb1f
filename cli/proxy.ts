/**
 * `cms-conformance proxy`: a transparent HTTP proxy in front of a server that judges the traffic a
 * real client sends through it. Requests and answers are piped byte for byte in both directions (a
 * capped copy is kept on the side); once an answer has been sent, the exchange goes through the one
 * judge and the check registry (harness/registry.ts), and each new finding is printed. On SIGINT or
 * SIGTERM the usual reports are written, and the traffic as HAR with --har. The relay, what it keeps of
 * an exchange, the HAR and the traffic's tests are proxy-relay.ts, proxy-capture.ts, proxy-har.ts and
 * proxy-report.ts.
 */
import { relative } from 'node:path';
import { intOption, outDirOption, parseOptions, UsageError, type Command, type OptionTable } from './args.ts';
import { DEFAULT_SEED } from '../harness/config.ts';
import { exchangeLine, findingLine } from '../harness/registry.ts';
import { runLine } from '../harness/replay.ts';
import { loadTargetFile, TargetError } from '../harness/target.ts';
import { finishRun, type FinishResult } from '../reports/index.ts';
import { exchangeTotals } from '../reports/results.ts';
import { verdictOf } from '../reports/expectations.ts';
import type { Target } from '../schemas/target.ts';
import { HarWriter } from './proxy-har.ts';
import { startProxy, type RunningProxy } from './proxy-relay.ts';
import { TrafficReport } from './proxy-report.ts';

const OPTIONS = {
  upstream: {
    type: 'string',
    value: 'URL',
    required: true,
    description: "the server to forward to; its path is the contract's base URL",
    example: '--upstream http://localhost:8080/rest',
  },
  port: {
    type: 'string',
    value: 'P',
    byDefault: '8081',
    description: 'port to listen on; 0 picks a free one',
    example: '--upstream http://localhost:8080/rest --port 9000',
  },
  host: {
    type: 'string',
    value: 'HOST',
    byDefault: '127.0.0.1',
    description: 'interface to listen on',
    example: '--upstream http://localhost:8080/rest --host 0.0.0.0',
  },
  target: {
    type: 'string',
    value: 'FILE',
    byDefault: 'none',
    description:
      "the server's target file: the names of its credentials (auth.query, auth.headers), which never appear in a report or the HAR, and its features",
    example: '--upstream http://localhost:8080/rest --target target.json',
  },
  out: {
    type: 'string',
    value: 'DIR',
    byDefault: 'reports/out/proxy',
    description: 'where the reports go: results.json (one test per operation and per requirement seen), junit.xml, report.html, summary.md',
    example: '--upstream http://localhost:8080/rest --out reports/client',
  },
  har: {
    type: 'string',
    value: 'FILE',
    byDefault: 'none',
    description: 'also write the traffic seen as HAR 1.2, credentials redacted',
    example: '--upstream http://localhost:8080/rest --har traffic.har',
  },
  strict: {
    type: 'boolean',
    description: 'members the contract does not name are errors, not warnings',
    example: '--upstream http://localhost:8080/rest --strict',
  },
} as const satisfies OptionTable;

/** Resolves with the first SIGINT or SIGTERM; a second one calls `again`. */
function stopSignal(again: () => void): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let first: NodeJS.Signals | undefined;
    const stop = (signal: NodeJS.Signals) => {
      if (first) return again();
      first = signal;
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

const shown = (p: string): string => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p));

/** The closing summary: what was seen, the tests it made, errors seen again and again, the reports and the verdict. */
function closingLines(report: TrafficReport, done: FinishResult, har: HarWriter | undefined): string[] {
  const s = done.results.summary;
  const lines = [
    '',
    `cms-conformance proxy: ${report.exchanges} exchanges seen, ${report.judged} of them operations of the contract${report.failedUpstream ? `, ${report.failedUpstream} without an answer` : ''}`,
  ];
  if (!report.judged && report.exchanges)
    lines.push("  no exchange matched an operation of the contract: is the client pointed at the upstream's base path?");
  lines.push(`  ${s.total} tests (one per operation and requirement seen): ${s.passed} passed, ${s.failed} failed, ${s.warnings} warnings`);
  const seenReqs = report.requirementsSeen();
  if (seenReqs.length) lines.push(`  requirements judged (answers): ${seenReqs.map((r) => `${r.requirement} (${r.answers})`).join(', ')}`);
  // Errors seen again and again are worth a line; repeated warnings (unknown members) would drown them.
  for (const { finding, count } of report
    .repeated()
    .filter((r) => r.finding.severity === 'error')
    .slice(0, 10))
    lines.push(
      `  seen ${count} times: ${finding.requirement} ${finding.check}: ${finding.message.length > 120 ? `${finding.message.slice(0, 120)}…` : finding.message}`,
    );
  const totals = exchangeTotals(s);
  if (totals) lines.push(`  ${totals}`);
  lines.push(`  reports: ${[...done.paths, ...(har ? [har.path] : [])].map(shown).join(', ')}`);
  lines.push(`VERDICT: ${report.judged ? verdictOf(done.results).text : 'no exchange of the contract was seen'}`);
  return lines;
}

/** The proxy subcommand. */
export const command: Command = {
  summary: 'a transparent proxy that judges the traffic of a real client against the contract',
  options: OPTIONS,
  about: [
    "A transparent HTTP proxy in front of a server: point a client or a browser at it and every exchange passing through is judged by the suite's judge (status, content type, envelope, response schema, unknown members, no 5xx) and by the checks one answer allows (paging slices and numItems/hasMoreItems, order against sortby/sortorder/sort, wastebin marks, filters the records refute). Each new finding is printed as it is seen. Bodies pass byte for byte and are streamed; headers and status pass unchanged.",
    'Paths are forwarded as they are: with --upstream http://host:8080/rest, point the client at http://127.0.0.1:P/rest. Stop it with Ctrl-C (SIGINT) or SIGTERM: it writes the reports.',
  ],
  exit: '(after SIGINT/SIGTERM) 0 no error finding, 1 an error finding was seen, 2 usage error.',
  async run(args) {
    const { values } = parseOptions(args, OPTIONS);
    if (!values.upstream) throw new UsageError('--upstream URL is required (the server to forward to)');
    let upstream: URL;
    try {
      upstream = new URL(values.upstream);
    } catch {
      throw new UsageError(`--upstream must be an http(s) URL, got "${values.upstream}"`);
    }
    if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
      throw new UsageError(`--upstream must be an http(s) URL, got "${values.upstream}"`);
    const port = intOption('port', values.port, 8081, 0);
    if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
    let target: Target | undefined;
    if (values.target) {
      try {
        target = loadTargetFile(values.target);
      } catch (err) {
        if (err instanceof TargetError) throw new UsageError(err.message);
        throw err;
      }
    }
    const outDir = outDirOption(values.out, 'reports/out/proxy');
    const basePath = upstream.pathname.replace(/\/+$/, '');
    const upstreamBase = `${upstream.origin}${basePath}`;
    const replayArgs = values.target ? ['--target', values.target] : undefined;
    const report = new TrafficReport((requirement) =>
      replayArgs
        ? runLine({ requirement, seed: DEFAULT_SEED, args: replayArgs })
        : `seen by cms-conformance proxy: repeat the request with the curl line, or run the suite's tests of it: npx cms-conformance run --only ${requirement} --target <target file of ${upstreamBase}>`,
    );
    for (const v of [...Object.values(target?.auth.query ?? {}), ...Object.values(target?.auth.headers ?? {})]) report.secrets.add(v);
    let har: HarWriter | undefined;
    if (values.har) {
      try {
        har = new HarWriter(values.har);
      } catch (err) {
        throw new UsageError(`--har ${values.har}: ${(err as Error).message}`);
      }
    }
    const startedAt = new Date();
    let proxy: RunningProxy;
    try {
      proxy = await startProxy({
        upstream,
        port,
        ...(values.host ? { host: values.host } : {}),
        strict: values.strict ?? false,
        credentials: { query: Object.keys(target?.auth.query ?? {}), headers: Object.keys(target?.auth.headers ?? {}) },
        onExchange(seen) {
          har?.add(seen.har);
          for (const f of report.addExchange(seen)) console.log(`${findingLine(f)}\n    ${exchangeLine(seen.exchange)}`);
          if (seen.exchange.error) console.log(`no answer: ${exchangeLine(seen.exchange)}: ${seen.exchange.error.message}`);
        },
      });
    } catch (err) {
      throw new UsageError(`cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${(err as Error).message}`);
    }
    console.log(
      `cms-conformance proxy: listening on ${proxy.url}, forwarding to ${upstream.origin}; point the client at ${proxy.url}${basePath} (Ctrl-C writes the reports)`,
    );
    // A second Ctrl-C does not wait for the requests in flight.
    const signal = await stopSignal(() => proxy.close(0));
    console.log(`cms-conformance proxy: ${signal}: stopping${proxy.inFlight ? `, finishing ${proxy.inFlight} requests in flight` : ''}`);
    await proxy.close(5000);
    await har?.close();

    const results = report.results(upstreamBase, target?.features ?? [], startedAt);
    const done = finishRun(results, { outDir, secrets: [...report.secrets] });
    console.log(closingLines(report, done, har).join('\n'));
    return done.exitCode;
  },
};
