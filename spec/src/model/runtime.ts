// The model as a program needs it at run time (the client, in a browser): every operation's
// route, security, parameter facts, pagination and async task, and the conventions — without
// what only tools read (summaries, pointers into the description, response schemas), so a
// bundle that ships it stays small.
import type { Conventions, OperationModel, ParameterModel, SecuritySchemeModel, SpecModel } from "./types.js";

export type RuntimeParameter = Omit<ParameterModel, "schemaPointer" | "example">;

export interface RuntimeOperation
  extends Pick<
    OperationModel,
    "key" | "operationId" | "method" | "path" | "product" | "security" | "pagination" | "asyncTask"
  > {
  readonly parameters: readonly RuntimeParameter[];
}

export interface RuntimeModel {
  readonly products: readonly string[];
  readonly operations: readonly RuntimeOperation[];
  readonly securitySchemes: readonly SecuritySchemeModel[];
  readonly conventions: Conventions;
}

export function runtimeModel(model: SpecModel): RuntimeModel {
  return {
    products: model.products,
    operations: model.operations.map((o) => ({
      key: o.key,
      operationId: o.operationId,
      method: o.method,
      path: o.path,
      product: o.product,
      security: o.security,
      parameters: o.parameters.map(({ schemaPointer: _pointer, example: _example, ...facts }) => facts),
      ...(o.pagination ? { pagination: o.pagination } : {}),
      ...(o.asyncTask ? { asyncTask: o.asyncTask } : {}),
    })),
    securitySchemes: model.securitySchemes,
    conventions: model.conventions,
  };
}
