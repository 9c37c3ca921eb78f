/**
 * A bound on the work one mock answer may take. Every list in schema mode has 2
 * items, so a query nesting lists (`friends { friends { … } }`) asks for 2^depth
 * objects: a 50-deep query of a few hundred bytes would never finish. Before
 * executing, the values an operation would produce are counted (each field once
 * per item of every list above it), and an operation past the bound is refused.
 *
 * @module
 */
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** The most values one operation's mock answer may hold. */
export const MAX_ANSWER_VALUES = 100_000;

/** How many items each list level multiplies by (the mock store's stable length). */
const LIST_LENGTH = 2;

/**
 * The values `operation` would produce, counted up to just past `limit` (the
 * count stops there). Introspection fields (`__schema`, `__type`) are not
 * counted: their answer is bounded by the schema itself.
 */
export function answerValues(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  limit: number = MAX_ANSWER_VALUES,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  let count = 0;
  const walk = (selections: SelectionSetNode, parent: GraphQLNamedType | undefined, factor: number): void => {
    for (const selection of selections.selections) {
      if (count > limit) return;
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name.startsWith('__')) continue;
        const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
        if (field === undefined) continue;
        let type = field.type;
        let times = factor;
        for (;;) {
          if (isNonNullType(type)) type = type.ofType;
          else if (isListType(type)) {
            times *= LIST_LENGTH;
            type = type.ofType;
          } else break;
        }
        count += times;
        if (selection.selectionSet) walk(selection.selectionSet, getNamedType(field.type), times);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        walk(selection.selectionSet, on, factor);
      } else {
        // Validation has refused fragment cycles, so this ends.
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value), factor);
      }
    }
  };
  walk(operation.selectionSet, schema.getRootType(operation.operation) ?? undefined, 1);
  return count;
}
