/**
 * `npm run bench`: the suite's own numbers, reported (never asserted: these machines are noisy).
 * Writes reports/out/bench.md and prints a summary: the full default run against the embedded server,
 * the fault-detection score, schema validation and generator throughput, undici alone against the
 * reference server (the ceiling the suite's requests/s is compared with), and bench:server's table.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { Pool } from 'undici';
import { projectRoot } from '../cli/collect.ts';
import { SuiteEngine } from '../cli/engine.ts';
import { prove } from '../cli/prove.ts';
import { openSession } from '../cli/session.ts';
import { fromSchema } from '../generators/fromSchema.ts';
import { validRequest, type World } from '../generators/requests.ts';
import type { RunConfig } from '../harness/config.ts';
import { operations } from '../schemas/operations.ts';
import { validateResponse } from '../schemas/validate.ts';
import { faults } from '../server/faults.ts';
import { startReferenceServer } from '../server/index.ts';

const exec = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : 0;
}

/** Calls `step` repeatedly for a fixed time and returns calls per second. */
async function throughput(step: () => unknown | Promise<unknown>, seconds = SECONDS): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let n = 0;
  while (performance.now() < end) {
    await step();
    n++;
  }
  return n / seconds;
}

async function fullRun(): Promise<string[]> {
  const session = await openSession({ timeoutMs: 10_000, concurrency: 8 });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const engine = await SuiteEngine.create({ workers: 2, progress: null });
  try {
    const config: RunConfig = { target: session.target, replayArgs: [], seed: 1, runs: 20, strict: false, timeoutMs: 10_000, concurrency: 8, sandboxFolderId: session.sandboxFolderId };
    const started = performance.now();
    const run = await engine.run(config);
    const seconds = (performance.now() - started) / 1000;
    const requests = run.tests.reduce((a, t) => a + (t.requests ?? 0), 0);
    const validated = run.tests.reduce((a, t) => a + (t.validated ?? 0), 0);
    const failed = run.tests.filter((t) => t.status === 'failed').length;
    return [
      `| full default run (embedded server, seed 1, 20 runs per property) | ${seconds.toFixed(1)} s, ${run.tests.length} tests, ${failed} failed |`,
      `| requests sent | ${requests} (${(requests / seconds).toFixed(0)} requests/s) |`,
      `| validated exchanges | ${validated} (${(validated / seconds).toFixed(0)}/s) |`,
      `| peak memory (RSS, runner and server in one process) | ${(peak / 2 ** 20).toFixed(0)} MiB |`,
    ];
  } finally {
    clearInterval(sampler);
    await engine.close();
    await session.close();
  }
}

async function undiciAlone(): Promise<number> {
  const server = await startReferenceServer({ port: 0 });
  const url = new URL(server.baseUrl);
  const pool = new Pool(url.origin, { connections: 8 });
  const path = `${url.pathname}/folder/load/${server.target.fixture.masterRootFolderId}`;
  try {
    // Eight in flight, like the suite's transport against the embedded server.
    const rates = await Promise.all(Array.from({ length: 8 }, () => throughput(async () => (await pool.request({ method: 'GET', path })).body.dump())));
    return rates.reduce((a, r) => a + r, 0);
  } finally {
    await pool.close();
    await server.close();
  }
}

async function main(): Promise<void> {
  const rows: string[] = ['| measure | value |', '|---|---|'];
  const say = (line: string) => console.log(line.replace(/^\| | \|$/g, '').replace(' | ', ': '));

  console.log('bench: full default run against the embedded server ...');
  const full = await fullRun();
  rows.push(...full);
  full.forEach(say);
  const suiteRate = Number(/\((\d+) requests\/s\)/.exec(full[1]!)?.[1] ?? 0);

  console.log('bench: undici alone against the reference server ...');
  const ceiling = await undiciAlone();
  rows.push(`| undici alone, GET folder/load, 8 in flight | ${ceiling.toFixed(0)} requests/s (the suite reaches ${((suiteRate / ceiling) * 100).toFixed(0)}% of it, ratio ${(ceiling / Math.max(suiteRate, 1)).toFixed(1)}x) |`);
  say(rows[rows.length - 1]!);

  console.log(`bench: fault detection over ${faults.length} faults ...`);
  const cases = await prove({ faults, variations: [], cleanSeeds: [], seed: 1, runs: 10 });
  const killed = cases.filter((c) => c.ok);
  const times = killed.map((c) => c.firstFailureMs ?? c.durationMs);
  const worst = killed.reduce((w, c) => ((c.firstFailureMs ?? c.durationMs) > (w?.firstFailureMs ?? w?.durationMs ?? -1) ? c : w), killed[0]);
  rows.push(`| fault detection | killed ${killed.length}/${cases.length}${cases.length > killed.length ? ` (missed: ${cases.filter((c) => !c.ok).map((c) => c.name).join(', ')})` : ''} |`);
  rows.push(`| time to first failure per fault | median ${median(times)} ms, worst ${worst ? `${worst.firstFailureMs ?? worst.durationMs} ms (${worst.name})` : '-'} |`);
  say(rows[rows.length - 2]!);
  say(rows[rows.length - 1]!);

  console.log('bench: schema validation and generator throughput ...');
  const bodies = fc.sample(fromSchema('responses/LegacyFileListResponse.json'), 200);
  let i = 0;
  const validations = await throughput(() => validateResponse('folder.getFiles', { body: bodies[i++ % bodies.length] }));
  rows.push(`| schema validation (LegacyFileListResponse bodies, with the annotation walk) | ${validations.toFixed(0)} bodies/s |`);
  const world: World = { fixture: { masterNodeId: 1, masterRootFolderId: 1, channelNodeId: 2, channelRootFolderId: 2, sandboxParentFolderId: 3, pagesFolderId: 4, templatesFolderId: 5 }, features: ['multichannelling', 'wastebin', 'pages', 'templates'], folders: [10, 11], files: [20, 21], localizedFiles: [20] };
  const generators = operations.filter((op) => op.id !== 'file.create.json').map((op) => validRequest(op.id, world));
  let g = 0;
  const generated = await throughput(() => fc.sample(generators[g++ % generators.length]!, 1));
  rows.push(`| request generation (all operations, round robin) | ${generated.toFixed(0)} requests/s |`);
  say(rows[rows.length - 2]!);
  say(rows[rows.length - 1]!);

  console.log('bench: the reference server (npm run bench:server) ...');
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts/bench-server.ts')], { cwd: projectRoot, maxBuffer: 16 * 2 ** 20 });
  console.log(stdout.trim());

  const out = join(projectRoot, 'reports/out');
  mkdirSync(out, { recursive: true });
  const md = `# cms-conformance benchmark\n\n${new Date().toISOString()}, Node ${process.version}. Numbers are measured, not asserted.\n\n${rows.join('\n')}\n\n## Reference server (npm run bench:server)\n\n\`\`\`\n${stdout.trim()}\n\`\`\`\n`;
  writeFileSync(join(out, 'bench.md'), md);
  console.log(`bench: written ${join(out, 'bench.md')}`);
}

await main();
// Vitest marks the process failed when a fault run fails, which is what those runs are for.
process.exitCode = 0;
