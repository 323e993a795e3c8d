#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { checkCatalogs } from './keys.mjs';

const problems = checkCatalogs(fileURLToPath(new URL('../locales', import.meta.url)));
if (problems.length) {
  console.error(`i18n: ${problems.length} problem(s)\n` + problems.join('\n'));
  process.exit(1);
}
console.log('i18n: every language has every key of English');
