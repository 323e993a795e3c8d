/**
 * @internal A count of the engine's units of work (units scanned, segments read, segment-table steps, findings
 * built), so that tests can prove each stage linear by counting instead of timing: the same input shape at N and
 * 10·N must take about ten times the steps. Counted per segment or per finding, never per character in a
 * hot loop (a loop that may revisit input adds its length once), so the count costs nothing measurable.
 */
export const work = {
  steps: 0,
  /**
   * Units of input copied into the tokenizer's buffer (each chunk once, plus what is copied again while a segment
   * or message spans chunks): apart from `steps`, as a copy costs a fraction of a step per unit.
   */
  copied: 0,
};
