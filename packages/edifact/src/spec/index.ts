/** Level 2, specification validation against the UN/EDIFACT directories. */
export {
  createSpecificationLevel,
  directoryName,
  validateSpecification,
  type SpecificationLevelOptions,
  type SpecificationOptions,
} from './specification.ts';
export { checkValue, parseFormat, type FormatProblem, type ValueFormat } from './format.ts';
