// What the spec says of an operation, derived once: the judge and fuzz ask for it on every page or
// request they see, and deriving it walks the description's schemas each time.
import type { OperationModel } from "@platform-api/spec";

/** `derive`, remembered per operation (the model's operations live as long as the model). */
export function oncePerOperation<T>(
  derive: (operation: OperationModel) => T,
): (operation: OperationModel) => T {
  const known = new WeakMap<OperationModel, T>();
  return (operation) => {
    if (known.has(operation)) return known.get(operation) as T;
    const derived = derive(operation);
    known.set(operation, derived);
    return derived;
  };
}
