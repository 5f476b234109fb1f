#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx registers its loader, then the CLI is imported.
import { register } from 'tsx/esm/api';

// Vitest's node API is large: loaded through tsx's loader it costs about 165 MB and a second more than
// loaded natively, so the commands that start Vitest load it first, before the loader is registered.
if (['run', 'prove', 'requirements'].includes(process.argv[2] ?? '')) await import('vitest/node');
register();
const { main, survivePipeClose } = await import('../cli/main.ts');
survivePipeClose();
process.exitCode = await main(process.argv.slice(2));
