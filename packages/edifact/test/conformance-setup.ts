/** Global setup of the conformance suite: one line when the third-party data is not beside the clone. */
import { hasShared, sharedRoot } from './directory/helpers.ts';

export default function setup(): void {
  if (!hasShared) console.log(`conformance suite skipped: ../shared not found (${sharedRoot})`);
}
