import type { Node } from 'yaml';

/** A mock file's fault at one YAML node: `node` is where the message points (its line and column). */
export abstract class NodeError<N extends Node = Node> extends Error {
  readonly node: N;
  constructor(node: N, message: string) {
    super(message);
    this.node = node;
  }
}
