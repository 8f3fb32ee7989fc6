#!/usr/bin/env node
// Operator CLI entry: runs the TypeScript sources through tsx so no build step is needed.
import { register } from 'tsx/esm/api';

register();
await import('../src/main/cli.ts');
