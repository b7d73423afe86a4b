// The handlers' types come from the spec's generated types: what a handler receives and what it may
// answer are its operation's. These checks run in the type checker (`tsc --noEmit` over test/): an
// `@ts-expect-error` that finds no error fails it.

import type { components } from "@platform-api/spec/generated/openapi";
import { describe, expectTypeOf, it } from "vitest";
import { HANDLERS } from "../src/handlers/index.js";
import type { AnswerOf, BodyOf, Handler, PathOf, QueryOf } from "../src/handlers/types.js";

describe("handlers are typed by operation", () => {
  it("gives a query parameter with a spec default as present, and one without as optional", () => {
    expectTypeOf<QueryOf<"listRegions">["limit"]>().toEqualTypeOf<number>();
    expectTypeOf<QueryOf<"listAiTasks">["page"]>().toEqualTypeOf<number>();
    expectTypeOf<QueryOf<"listTasks">["limit"]>().toEqualTypeOf<number>();
    expectTypeOf<QueryOf<"listTasks">["task_type"]>().toEqualTypeOf<string | undefined>();
  });

  it("gives the operation's path parameters and body", () => {
    expectTypeOf<PathOf<"getTask">>().toEqualTypeOf<{ task_id: string }>();
    expectTypeOf<BodyOf<"createVolume">>().toEqualTypeOf<components["schemas"]["CreateVolumeRequest"]>();
    expectTypeOf<BodyOf<"listRegions">>().toEqualTypeOf<undefined>();
  });

  it("answers only the documented success statuses with their bodies", () => {
    expectTypeOf<AnswerOf<"getTask">>().toEqualTypeOf<{ status: 200; body: components["schemas"]["Task"] }>();
    expectTypeOf<AnswerOf<"createVolume">["status"]>().toEqualTypeOf<200 | 201>();
    expectTypeOf<AnswerOf<"putStorageNotificationEvent">["status"]>().toEqualTypeOf<200 | 201 | 202 | 204>();
    type Task = components["schemas"]["Task"];
    const task = (): Task => ({
      id: "x",
      task_type: "t",
      state: "NEW",
      error: null,
      created_on: "",
      created_resources: null,
      user_id: 1,
    });
    // @ts-expect-error a regions handler cannot answer a task
    const wrongBody: Handler<"listRegions"> = () => ({ status: 200, body: task() });
    // @ts-expect-error nor a status its operation does not document
    const wrongStatus: Handler<"getTask"> = () => ({ status: 201, body: task() });
    expectTypeOf(wrongBody).toBeFunction();
    expectTypeOf(wrongStatus).toBeFunction();
  });

  it("has one handler per operation of the generated types", () => {
    expectTypeOf(HANDLERS.listRegions).toEqualTypeOf<Handler<"listRegions">>();
    // @ts-expect-error an operation the spec does not have has no handler
    expectTypeOf(HANDLERS.listFlavors).toBeFunction();
  });
});
