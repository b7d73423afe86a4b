// x-inferred-required names the fields a schema requires only by the description's reading of the
// platform's documentation ("a resource's listed fields are required"), not because the
// documentation says so. The conformance suite, the docs and the client's types relax or mark
// exactly those names, so each must be a field the same schema requires: a name outside
// `required` would relax nothing and mark a field that is optional anyway.
function check(schema, ctx) {
  if (!schema || typeof schema !== "object" || !("x-inferred-required" in schema)) return;
  const value = schema["x-inferred-required"];
  const location = ctx.location.child("x-inferred-required");
  if (!Array.isArray(value) || value.length === 0 || !value.every((n) => typeof n === "string")) {
    ctx.report({ message: "x-inferred-required must be a non-empty list of field names.", location });
    return;
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const seen = new Set();
  for (const [i, name] of value.entries()) {
    if (seen.has(name))
      ctx.report({ message: `x-inferred-required names \`${name}\` twice.`, location: location.child(i) });
    seen.add(name);
    if (!required.has(name))
      ctx.report({
        message: `x-inferred-required names \`${name}\`, which the schema's \`required\` does not list.`,
        location: location.child(i),
      });
  }
}

export default function inferredRequired() {
  return { Schema: { enter: check } };
}
