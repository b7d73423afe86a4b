// Path-level and operation-level parameters, resolved, with operation-level ones overriding.
export function effectiveParameters(pathItem, operation, ctx) {
  const byKey = new Map();
  for (const raw of [...(pathItem?.parameters ?? []), ...(operation?.parameters ?? [])]) {
    const param = raw && typeof raw === "object" && "$ref" in raw ? ctx.resolve(raw).node : raw;
    if (param?.name && param.in) byKey.set(`${param.in}:${param.name}`, param);
  }
  return [...byKey.values()];
}
