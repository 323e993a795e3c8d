/**
 * The segment-table state machine: places each segment of a message on a node of its compiled segment table
 * (UNTDID Part 4, 2.6 UNSM General Introduction: segment groups are entered by their trigger segment, segments come
 * in table order, a group repeats by its trigger), keeping occurrence counts per group instance. It reports what it
 * sees to a listener and judges nothing itself, so that the specification level (directory limits) and the map
 * level (guide limits) share it.
 */
import type { Segment } from '../model.ts';
import type { ScannedMessage } from '../screen.ts';
import { internTag } from '../tags.ts';
import { findTransition, type CompiledMessage, type CompiledNode } from './compile.ts';
import { work } from '../work.ts';

export type WalkListener = {
  /** `segment` was placed on `node`; `count` is its occurrence number in the current instance of the parent. */
  placed(segment: Segment, node: CompiledNode, count: number): void;
  /** `node` is left for good in the current instance of its parent, after `count` occurrences; `at` caused it. */
  closed(node: CompiledNode, count: number, at: Segment): void;
  /** `segment` has no place here (unknown tag or out of order); the state is unchanged. */
  unplaced(segment: Segment): void;
};

/** Walks one message's segments through a compiled segment table. */
export class SegmentTableWalker {
  private readonly message: CompiledMessage;
  private readonly nodes: CompiledNode[];
  /**
   * Occurrences of each node in the current instance of its parent. A count is valid only while `stamps[id]`
   * equals the parent's `instances` entry: entering a group instance or a new message just takes a new instance
   * number, instead of zeroing the counts of every child.
   */
  private readonly counts: Int32Array;
  private readonly stamps: Int32Array;
  private readonly instances: Int32Array;
  private readonly parents: Int32Array;
  private instance = 0;
  /** Open groups (node ids) from the message down, and the current child index in each. */
  private readonly groups: number[] = [0];
  private readonly indexes: number[] = [0];
  /** Nodes whose `closed` the listener wants (1); undefined: all. Most nodes are optional and need no call. */
  private readonly closeMask: Uint8Array | undefined;

  constructor(message: CompiledMessage, closeMask?: Uint8Array) {
    this.message = message;
    this.nodes = message.nodes;
    const n = message.nodes.length;
    this.counts = new Int32Array(n);
    this.stamps = new Int32Array(n);
    this.instances = new Int32Array(n);
    this.parents = new Int32Array(n);
    for (const node of message.nodes) this.parents[node.id] = Math.max(0, node.parent);
    this.closeMask = closeMask;
    this.reset();
  }

  /** Occurrences of node `id` in the current instance of its parent. */
  private countOf(id: number): number {
    return this.stamps[id] === this.instances[this.parents[id] as number] ? (this.counts[id] as number) : 0;
  }

  /** One more occurrence of node `id`; returns the new count. */
  private increment(id: number): number {
    const current = this.instances[this.parents[id] as number] as number;
    if (this.stamps[id] !== current) {
      this.stamps[id] = current;
      this.counts[id] = 0;
    }
    return ++this.counts[id]!;
  }

  /** Back to the start of a message, to walk the next one with the same walker. */
  reset(): void {
    if (this.instance > 0x3fffffff) {
      this.instance = 0;
      this.stamps.fill(-1);
    }
    this.instances[0] = ++this.instance;
    this.groups.length = 1;
    this.indexes.length = 1;
    this.indexes[0] = 0;
  }

  /** Path of the current group instance, e.g. `SG2[1]/SG3[2]` ('' at message level). */
  groupPath(): string {
    let path = '';
    for (let i = 1; i < this.groups.length; i++) {
      const node = this.nodes[this.groups[i] ?? 0];
      if (node) path += `${path === '' ? '' : '/'}${node.name}[${this.countOf(node.id)}]`;
    }
    return path;
  }

  /** Path of a node in the current group instance: `SG2[1]/NAD[2]`, or `SG2[1]/NAD` without a count. */
  nodePath(node: CompiledNode, count?: number): string {
    const groups = this.groupPath();
    const own = count === undefined ? node.name : `${node.name}[${count}]`;
    return groups === '' ? own : `${groups}/${own}`;
  }

  /** Places one segment. */
  push(segment: Segment, listener: WalkListener): void {
    work.steps++;
    const nodes = this.nodes;
    const depth = this.groups.length - 1;
    const group = this.groups[depth] as number;
    const index = this.indexes[depth] as number;
    const tag = segment.tag;
    let transition = findTransition(this.message, group, index, tag, false);
    if (transition !== null && transition.up === 0 && transition.index === index) {
      // The same segment again. Past its maximum, a later sibling with that tag takes it, or a group triggered by
      // it: a repeated trigger segment (NAD NAD in SG2) starts the next occurrence of its group.
      const node = nodes[(nodes[group] as CompiledNode).children[index] as number];
      if (node !== undefined && !node.isGroup && this.countOf(node.id) >= node.max) {
        const later = findTransition(this.message, group, index, tag, true);
        if (later !== null && (later.up === 0 || this.targetIsGroup(later))) transition = later;
      }
    }
    if (transition === null) {
      listener.unplaced(segment);
      return;
    }
    for (let up = transition.up; up > 0; up--) this.leaveGroup(segment, listener);
    const top = this.groups.length - 1;
    const parent = nodes[this.groups[top] as number] as CompiledNode;
    this.closeChildren(parent, this.indexes[top] as number, transition.index, segment, listener);
    this.indexes[top] = transition.index;
    const node = nodes[parent.children[transition.index] as number] as CompiledNode;
    const count = this.increment(node.id);
    if (node.isGroup) {
      // A new instance of the group: its children start counting again; its trigger is its first child.
      this.instances[node.id] = ++this.instance;
      listener.placed(segment, node, count);
      this.groups.push(node.id);
      this.indexes.push(0);
      const trigger = nodes[node.children[0] as number];
      if (trigger) listener.placed(segment, trigger, this.increment(trigger.id));
    } else listener.placed(segment, node, count);
  }

  /** Ends the message: every open group and the message itself are left. */
  end(last: Segment, listener: WalkListener): void {
    while (this.groups.length > 1) this.leaveGroup(last, listener);
    const root = this.nodes[0];
    if (root) this.closeChildren(root, this.indexes[0] ?? 0, root.children.length, last, listener);
  }

  private targetIsGroup(transition: { up: number; index: number }): boolean {
    const level = this.groups.length - 1 - transition.up;
    const parent = this.nodes[this.groups[level] ?? -1];
    return this.nodes[parent?.children[transition.index] ?? -1]?.isGroup ?? false;
  }

  private leaveGroup(at: Segment, listener: WalkListener): void {
    const top = this.groups.length - 1;
    const group = this.nodes[this.groups[top] as number] as CompiledNode;
    this.closeChildren(group, this.indexes[top] as number, group.children.length, at, listener);
    this.groups.pop();
    this.indexes.pop();
  }

  private closeChildren(group: CompiledNode, from: number, to: number, at: Segment, listener: WalkListener): void {
    const children = group.children;
    const mask = this.closeMask;
    for (let i = from; i < to; i++) {
      const id = children[i] as number;
      if (mask !== undefined && mask[id] === 0) continue;
      const node = this.nodes[id];
      if (node) listener.closed(node, this.countOf(id), at);
    }
  }
}

/** A listener of the screens' walks: it only notes whether anything would be reported, and where the walk is. */
export type ScreenWalkListener = WalkListener & { ok: boolean; position: number };

/**
 * Walks a scanned message's tags (see screen.ts) until the listener notes a problem; true when it noted none.
 * `tags`, when given, receives the tags. The walker reads nothing of a segment but its tag.
 */
export const walkScanned = (
  walker: SegmentTableWalker,
  m: ScannedMessage,
  listener: ScreenWalkListener,
  tags?: string[],
): boolean => {
  walker.reset();
  const segment = { tag: '' } as Segment;
  for (let i = 0; i < m.count && listener.ok; i++) {
    segment.tag = internTag(m.text, m.starts[i] as number);
    if (tags !== undefined) tags[i] = segment.tag;
    listener.position = i;
    walker.push(segment, listener);
  }
  if (listener.ok) walker.end(segment, listener);
  return listener.ok;
};
