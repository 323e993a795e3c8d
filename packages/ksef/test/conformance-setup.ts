/** Global setup of the conformance suite: one line when the KSeF files are not beside the clone. */
import { hasKsefSpecs } from './shared.ts';

export default function setup(): void {
  if (!hasKsefSpecs) console.log('ksef conformance suite skipped: ../shared not found');
}
