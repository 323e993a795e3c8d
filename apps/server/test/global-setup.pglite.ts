import { dbSnapshotsSetup } from './db-snapshots.ts';

export default dbSnapshotsSetup('pglite');
