export declare const SERVER_NODE_ARGS: string[];
export declare const serverEnv: <T extends Record<string, string | undefined>>(
  env: T,
) => T & { MALLOC_MMAP_THRESHOLD_: string; MALLOC_TRIM_THRESHOLD_: string };
