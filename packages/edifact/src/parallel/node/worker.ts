/**
 * A worker of the parallel mode: opens the directory store once, then validates the parts it is sent (syntax and
 * specification levels, and the map level when asked) and posts back each part's result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createMapLevel } from '../../map/map-level.ts';
import { loadGuides } from '../../map/node/load-guides.ts';
import { openDirectoryStore } from '../../directory/node/store.ts';
import type { ValidationLevelPlugin } from '../../levels.ts';
import { createSpecificationLevel } from '../../spec/specification.ts';
import { validatePart } from '../../validate.ts';
import type { PartJob, WorkerSetup } from './parallel.ts';

const setup = workerData as WorkerSetup;
const store = openDirectoryStore(setup.store);
const levels: ValidationLevelPlugin[] = [createSpecificationLevel({ directories: store })];
if (setup.map) levels.push(createMapLevel({ guides: await loadGuides(), directories: store }));
const options = { strict: setup.strict, levels, maxFindingsPerMessage: setup.maxFindingsPerMessage };

parentPort?.on('message', (job: PartJob) => {
  validatePart(job.header, job.body, job.part, options).then(
    (result) => parentPort?.postMessage({ id: job.id, result }),
    (error: unknown) =>
      parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
parentPort?.postMessage({ ready: true });
