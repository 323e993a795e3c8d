/** Time source, injected so tests can move through expiry windows without waiting. */
export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };

export function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
export function addSeconds(date: Date, s: number): Date {
  return new Date(date.getTime() + s * 1000);
}
