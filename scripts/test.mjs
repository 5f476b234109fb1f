#!/usr/bin/env node
// `npm test`: the type check (tsc --noEmit), the format check (prettier --check .) and the project's
// tests (vitest run, with the arguments given to npm test) at once. Run one after the other, the two
// checks kept both cores waiting while they used one; beside the tests they take up the time a test
// file leaves a core idle. Vitest prints as it goes; a check that fails says so when it ends, and
// its output comes after the tests, above the last lines, which say what each of the three gave.
// Exit: the first non-zero exit code, else 0.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Runs a command in the project; resolves with its exit code and, unless `live`, its output. */
function start(label, command, args, live) {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  let output = '';
  if (!live) {
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
  }
  return new Promise((resolve) => {
    let ended = false;
    // A command that cannot start gives 'error' and may give 'close' too: it ends once.
    const end = (code) => {
      if (ended) return;
      ended = true;
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      if (code !== 0 && !live) process.stdout.write(`\n${label} failed (exit ${code}); its output follows the tests\n`);
      resolve({ label, code, seconds, output });
    };
    child.on('error', (err) => {
      output += `${err.message}\n`;
      end(127);
    });
    child.on('close', (code, signal) => end(code ?? (signal ? 1 : 0)));
  });
}

const results = await Promise.all([
  start('tsc --noEmit', bin('tsc'), ['--noEmit'], false),
  start('prettier --check .', bin('prettier'), ['--check', '.'], false),
  start('vitest run', bin('vitest'), ['run', ...process.argv.slice(2)], true),
]);
for (const r of results) if (r.code !== 0 && r.output) console.log(`\n${r.label} (exit ${r.code}):\n${r.output.trimEnd()}`);
console.log('');
for (const r of results) console.log(`${r.code === 0 ? 'ok    ' : 'FAILED'} ${r.label} (exit ${r.code}, ${r.seconds} s)`);
process.exitCode = results.find((r) => r.code !== 0)?.code ?? 0;
