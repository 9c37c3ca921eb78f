/** The part of `postman-collection` (no types of its own) the Postman import test uses. */
declare module 'postman-collection' {
  interface PropertyList<T> {
    add(item: T): void;
  }
  export class Collection {
    constructor(definition?: unknown);
    items: PropertyList<Item | ItemGroup>;
    toJSON(): unknown;
  }
  export class ItemGroup {
    constructor(definition?: unknown);
    items: PropertyList<Item | ItemGroup>;
  }
  export class Item {
    constructor(definition?: unknown);
    responses: PropertyList<Response>;
  }
  export class Response {
    constructor(definition?: unknown);
  }
}
