// What every list rule shares: which lists of the spec it applies to, and what an active run needs
// for a list's verdicts to mean something (the operation's key and place, and a server that keeps
// state: Prism's examples are no list).

import type { OperationModel } from "@platform-api/spec";
import { operationNeeds } from "../facts/operations.js";
import type { Need } from "../shared/context.js";

export const offsetLists = {
  appliesTo: "every x-pagination list of style offset",
  applies: (operation: OperationModel) => operation.pagination?.style === "offset",
  needs: (operation: OperationModel): Need[] => [...operationNeeds(operation), "state"],
};

export const pageLists = {
  appliesTo: "every x-pagination list of style page",
  applies: (operation: OperationModel) => operation.pagination?.style === "page",
  needs: (operation: OperationModel): Need[] => [...operationNeeds(operation), "state"],
};
