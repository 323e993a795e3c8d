/** The parallel mode (Node only): one input validated by several worker threads. */
export { ParallelValidator, type ParallelValidationResult, type ParallelValidatorOptions } from './parallel.ts';
