// Paging parameters declare their bounds, unless the description says in `x-unspecified` that the
// platform does not show them (then inventing bounds would be worse than leaving them open).
const DEFAULT_BOUNDS = { limit: ["minimum", "maximum"], offset: ["minimum"], page: ["minimum"] };

export default function listParameterBounds(options = {}) {
  const bounds = options.bounds ?? DEFAULT_BOUNDS;
  return {
    Parameter: {
      enter(param, ctx) {
        if (param.in !== "query" || !(param.name in bounds)) return;
        const unspecified = (param["x-unspecified"] ?? []).some((s) => /bounds/i.test(String(s)));
        if (unspecified) return;
        const schema = param.schema && "$ref" in param.schema ? ctx.resolve(param.schema).node : param.schema;
        for (const keyword of bounds[param.name]) {
          if (schema?.[keyword] === undefined) {
            ctx.report({
              message: `Paging parameter \`${param.name}\` has no \`${keyword}\`; declare it, or say in x-unspecified that its bounds are not shown.`,
              location: ctx.location.child("schema"),
            });
          }
        }
      },
    },
  };
}
