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
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
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

/** What an introspection field answers with: an object of one of the introspection types, or a list of them. */
type Introspected =
  | { kind: '__Schema'; value: GraphQLSchema }
  | { kind: '__Type'; value: GraphQLType }
  | { kind: '__Field'; value: { args: readonly unknown[]; type: GraphQLType } }
  | { kind: '__InputValue'; value: { type: GraphQLType } }
  | { kind: '__EnumValue'; value: unknown }
  | { kind: '__Directive'; value: { args: readonly unknown[]; locations: readonly unknown[] } };

type Child = Introspected | Introspected[] | number | null;

/** The child `field` of an introspection object: objects, a list of them, a count of plain values, or null. */
function childOf(schema: GraphQLSchema, parent: Introspected, field: string): Child {
  const list = <K extends Introspected['kind']>(kind: K, values: readonly unknown[]) =>
    values.map((value) => ({ kind, value }) as Introspected);
  switch (parent.kind) {
    case '__Schema': {
      const root = (type: GraphQLType | null | undefined) => (type ? { kind: '__Type' as const, value: type } : null);
      if (field === 'types') return list('__Type', Object.values(parent.value.getTypeMap()));
      if (field === 'directives') return list('__Directive', parent.value.getDirectives());
      if (field === 'queryType') return root(parent.value.getQueryType());
      if (field === 'mutationType') return root(parent.value.getMutationType());
      if (field === 'subscriptionType') return root(parent.value.getSubscriptionType());
      return 1;
    }
    case '__Type': {
      const type = parent.value;
      if (field === 'ofType') return 'ofType' in type ? { kind: '__Type', value: type.ofType } : null;
      if (field === 'fields')
        return isObjectType(type) || isInterfaceType(type) ? list('__Field', Object.values(type.getFields())) : null;
      if (field === 'interfaces')
        return isObjectType(type) || isInterfaceType(type) ? list('__Type', type.getInterfaces()) : null;
      if (field === 'possibleTypes') return isAbstractType(type) ? list('__Type', schema.getPossibleTypes(type)) : null;
      if (field === 'enumValues') return isEnumType(type) ? list('__EnumValue', type.getValues()) : null;
      if (field === 'inputFields')
        return isInputObjectType(type) ? list('__InputValue', Object.values(type.getFields())) : null;
      return 1;
    }
    case '__Field':
      if (field === 'args') return list('__InputValue', parent.value.args);
      if (field === 'type') return { kind: '__Type', value: parent.value.type };
      return 1;
    case '__InputValue':
      return field === 'type' ? { kind: '__Type', value: parent.value.type } : 1;
    case '__Directive':
      if (field === 'args') return list('__InputValue', parent.value.args);
      if (field === 'locations') return parent.value.locations.length;
      return 1;
    default:
      return 1;
  }
}

/**
 * How many values one full introspection may hold per element of the schema
 * (its types, fields, arguments, enum values and union members): the standard
 * introspection query (GraphiQL's, codegen's) over GitHub's public schema
 * counts 122,218 values for its 12,781 elements, under 10 each.
 */
export const INTROSPECTION_VALUES_PER_ELEMENT = 16;

/** The values an operation would produce: its data, and its introspection apart. */
export interface AnswerSize {
  values: number;
  introspected: number;
}

/**
 * The values `operation` would produce, counted up to just past `limit` (data)
 * or `introspectionLimit` (introspection: `__schema`, `__type`, `__typename`,
 * over the schema's own types, fields and values); the count stops there.
 * Introspection is counted apart, and bounded by the schema's size: one full
 * introspection always fits, 2,000 aliases of it never.
 */
export function answerSize(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  limit: number = MAX_ANSWER_VALUES,
  introspectionLimit: number = limit,
): AnswerSize {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  let count = 0;
  let intro = 0;
  const over = () => count > limit || intro > introspectionLimit;
  /** The fragments being spread on the path walked (the document may not be validated yet). */
  const spreading = new Set<FragmentDefinitionNode>();
  /** The selections of `selections`, fragments spread, each with the type condition it is under. */
  const fields = function* (selections: SelectionSetNode): Generator<FieldNode> {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) yield selection;
      else if (selection.kind === Kind.INLINE_FRAGMENT) yield* fields(selection.selectionSet);
      else {
        // Counted before validation: a fragment already being spread (a cycle) is left out.
        const fragment = fragments.get(selection.name.value);
        if (fragment && !spreading.has(fragment)) {
          spreading.add(fragment);
          yield* fields(fragment.selectionSet);
          spreading.delete(fragment);
        }
      }
    }
  };
  /** Introspection below `parent`, `factor` times over (counted as an upper bound across type conditions). */
  const introspect = (selections: SelectionSetNode, parent: Introspected, factor: number): void => {
    for (const field of fields(selections)) {
      if (over()) return;
      const child = field.name.value === '__typename' ? 1 : childOf(schema, parent, field.name.value);
      if (child === null) intro += factor;
      else if (typeof child === 'number') intro += factor * child;
      else if (Array.isArray(child)) {
        intro += factor * child.length;
        if (field.selectionSet) {
          for (const element of child) {
            if (over()) return;
            introspect(field.selectionSet, element, factor);
          }
        }
      } else {
        intro += factor;
        if (field.selectionSet) introspect(field.selectionSet, child, factor);
      }
    }
  };
  const walk = (selections: SelectionSetNode, parent: GraphQLNamedType | undefined, factor: number): void => {
    for (const selection of selections.selections) {
      if (over()) return;
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name === '__typename') {
          intro += factor;
          continue;
        }
        if (name === '__schema' || name === '__type') {
          intro += factor;
          const target: Introspected | null =
            name === '__schema' ? { kind: '__Schema', value: schema } : typeArgument(schema, selection);
          if (target !== null && selection.selectionSet) introspect(selection.selectionSet, target, factor);
          continue;
        }
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
        // Counted before validation: a fragment already being spread (a cycle) is left out.
        const fragment = fragments.get(selection.name.value);
        if (fragment && !spreading.has(fragment)) {
          spreading.add(fragment);
          walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value), factor);
          spreading.delete(fragment);
        }
      }
    }
  };
  walk(operation.selectionSet, schema.getRootType(operation.operation) ?? undefined, 1);
  return { values: count, introspected: intro };
}

/** The elements of `schema` (see {@link INTROSPECTION_VALUES_PER_ELEMENT}), counted once per schema. */
export function schemaElements(schema: GraphQLSchema): number {
  let elements = elementCounts.get(schema);
  if (elements === undefined) {
    elements = 0;
    for (const type of Object.values(schema.getTypeMap())) {
      elements++;
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) elements += 1 + field.args.length;
      } else if (isInputObjectType(type)) elements += Object.keys(type.getFields()).length;
      else if (isEnumType(type)) elements += type.getValues().length;
      else if (isAbstractType(type)) elements += schema.getPossibleTypes(type).length;
    }
    for (const directive of schema.getDirectives()) elements += 1 + directive.args.length;
    elementCounts.set(schema, elements);
  }
  return elements;
}

const elementCounts = new WeakMap<GraphQLSchema, number>();

/**
 * The type `__type(name: …)` names: by its literal; one given by a variable is
 * counted as the schema's largest type (the most fields, values and members),
 * which no other can pass.
 */
function typeArgument(schema: GraphQLSchema, field: FieldNode): Introspected | null {
  const argument = field.arguments?.find((arg) => arg.name.value === 'name')?.value;
  if (argument?.kind === Kind.STRING) {
    const type = schema.getType(argument.value);
    return type ? { kind: '__Type', value: type } : null;
  }
  let largest: GraphQLNamedType | undefined;
  let size = -1;
  for (const type of Object.values(schema.getTypeMap())) {
    const members =
      isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)
        ? Object.keys(type.getFields()).length
        : isEnumType(type)
          ? type.getValues().length
          : isAbstractType(type)
            ? schema.getPossibleTypes(type).length
            : 0;
    if (members > size) [largest, size] = [type, members];
  }
  return largest ? { kind: '__Type', value: largest } : null;
}
