// A list operation tells tools how it pages (x-pagination) instead of leaving them to guess, and
// every parameter the extension names exists on the operation.
import { effectiveParameters } from "./parameters.js";

const STYLES = {
  offset: { params: ["limitParam", "offsetParam"], fields: ["countField", "itemsField"] },
  page: {
    params: ["pageParam", "limitParam"],
    fields: ["countField", "itemsField", "nextField", "previousField"],
  },
};

export default function paginationExtension() {
  return {
    PathItem: {
      Operation: {
        enter(operation, ctx, parents) {
          const params = effectiveParameters(parents.PathItem, operation, ctx).filter(
            (p) => p.in === "query",
          );
          const names = new Set(params.map((p) => p.name));
          const pagination = operation["x-pagination"];
          if (!pagination) {
            if (names.has("limit") && (names.has("offset") || names.has("page"))) {
              ctx.report({
                message: "Operation takes paging parameters but has no x-pagination.",
                location: ctx.location.key(),
              });
            }
            return;
          }
          const style = STYLES[pagination.style];
          if (!style) {
            ctx.report({
              message: `x-pagination.style must be one of: ${Object.keys(STYLES).join(", ")}.`,
              location: ctx.location.child(["x-pagination", "style"]),
            });
            return;
          }
          for (const key of [...style.params, ...style.fields]) {
            if (typeof pagination[key] !== "string") {
              ctx.report({
                message: `x-pagination.${key} is required for style ${pagination.style}.`,
                location: ctx.location.child("x-pagination"),
              });
            }
          }
          for (const key of style.params) {
            if (typeof pagination[key] === "string" && !names.has(pagination[key])) {
              ctx.report({
                message: `x-pagination.${key} names \`${pagination[key]}\`, which is not a query parameter of the operation.`,
                location: ctx.location.child(["x-pagination", key]),
              });
            }
          }
        },
      },
    },
  };
}
