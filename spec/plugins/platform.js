// Redocly plugin: the governance rules that configurable rules cannot express (they need to look
// at an operation's parameters and responses together, or at extension values), and the
// decorator that tidies per-product bundles.
import removeUnusedTags from "./decorators/remove-unused-tags.js";
import errorResponsesForInput from "./rules/error-responses-for-input.js";
import inferredRequired from "./rules/inferred-required.js";
import listParameterBounds from "./rules/list-parameter-bounds.js";
import paginationExtension from "./rules/pagination-extension.js";
import unspecifiedShape from "./rules/unspecified-shape.js";

export default function platformPlugin() {
  return {
    id: "platform",
    rules: {
      oas3: {
        "error-responses-for-input": errorResponsesForInput,
        "inferred-required": inferredRequired,
        "list-parameter-bounds": listParameterBounds,
        "pagination-extension": paginationExtension,
        "unspecified-shape": unspecifiedShape,
      },
    },
    decorators: {
      oas3: {
        "remove-unused-tags": removeUnusedTags,
      },
    },
  };
}
