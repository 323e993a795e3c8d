/** Global setup of the conformance suite: one line when the sample corpus is not beside the clone. */
import { hasSamples, samplesDir } from './helpers.ts';

export default function setup(): void {
  if (!hasSamples) console.log(`documents conformance suite skipped: ${samplesDir} not found`);
}
