import { customType } from 'drizzle-orm/pg-core';

/** PostgreSQL `bytea`, as a Buffer on both drivers; shared by every table that keeps bytes. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
