/** Global setup of the conformance suite: one line when the e-TTN specs are not beside the clone. */
import { hasSpecs } from './helpers.ts';

export default function setup(): void {
  if (!hasSpecs) console.log('ettn conformance suite skipped: ../shared not found');
}
