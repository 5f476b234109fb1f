#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx registers its loader, then the CLI is imported.
import { register } from 'tsx/esm/api';

register();
const { main, survivePipeClose } = await import('../cli/main.ts');
survivePipeClose();
process.exitCode = await main(process.argv.slice(2));
