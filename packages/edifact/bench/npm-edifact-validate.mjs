#!/usr/bin/env node
/**
 * The npm `edifact` package with its validator as a whole process, for the bench's CLI stage: reads FILE as a
 * stream of chunks (latin-1, as the generated input is), parses it with the package's Validator (element and
 * component definitions) and checks each ORDERS and INVOIC message's segment order with its Tracker, as its README
 * shows; prints the counts as JSON. Plain JavaScript so that no TypeScript loader is part of its start-up.
 *
 *   node bench/npm-edifact-validate.mjs FILE
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const edifact = require('edifact');

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm-edifact-validate.mjs FILE\n');
  process.exit(2);
}

const validator = new edifact.Validator();
validator.define(require('edifact/segments.js'));
validator.define(require('edifact/elements.js'));
let errors = 0;
const trackers = new Map();
for (const type of ['ORDERS', 'INVOIC']) {
  const tracker = new edifact.Tracker(require(`edifact/messages/${type}.json`));
  tracker.on('error', () => void errors++);
  trackers.set(type, tracker);
}

const parser = new edifact.Parser(validator);
let segments = 0;
let tracker;
let current;
let element = [];
parser.onopensegment = (name) => {
  current = { name, elements: [] };
  segments++;
  if (tracker && name !== 'UNH') tracker.accept(name);
  if (name === 'UNT') tracker = undefined;
};
parser.onelement = () => {
  element = [];
  current?.elements.push(element);
};
parser.oncomponent = (value) => element.push(value);
parser.onclosesegment = () => {
  if (current?.name === 'UNH') {
    tracker = trackers.get(current.elements[1]?.[0] ?? '');
    tracker?.reset();
    tracker?.accept('UNH');
  }
};
for await (const chunk of createReadStream(file, { encoding: 'latin1' })) parser.write(chunk);
parser.end();
process.stdout.write(`${JSON.stringify({ segments, errors })}\n`);
