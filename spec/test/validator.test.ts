import { describe, expect, it } from "vitest";
import { createSpecValidator } from "../lib/index.js";
import { loadBundle } from "./bundle.js";

const { validateResponse } = createSpecValidator(loadBundle());
const regions = { count: 1, results: [] };

describe("validateResponse", () => {
  it("accepts a documented status with a valid JSON body", () => {
    expect(
      validateResponse({
        method: "GET",
        path: "/cloud/v1/regions",
        status: 200,
        contentType: "application/json; charset=utf-8",
        body: regions,
      }),
    ).toEqual([]);
  });

  it("refuses an undocumented status", () => {
    expect(validateResponse({ method: "GET", path: "/cloud/v1/regions", status: 404, body: {} })).toEqual([
      "status 404 is not documented for GET /cloud/v1/regions",
    ]);
  });

  it("refuses an undocumented content type", () => {
    expect(
      validateResponse({
        method: "GET",
        path: "/cloud/v1/regions",
        status: 200,
        contentType: "text/html",
        body: "<p>",
      }),
    ).toEqual(['content type "text/html" is not documented for status 200 (documented: application/json)']);
  });

  it("refuses a body that breaks the schema and says where", () => {
    const errors = validateResponse({
      method: "GET",
      path: "/cloud/v1/regions",
      status: 200,
      contentType: "application/json",
      body: { count: "1", results: [] },
    });
    expect(errors).toEqual(["/count must be integer"]);
  });

  it("matches a status range (2XX) and refuses a body where none is documented", () => {
    const path = "/storage/notifications/v1/event";
    expect(validateResponse({ method: "PUT", path, status: 204 })).toEqual([]);
    expect(
      validateResponse({ method: "PUT", path, status: 200, contentType: "application/json", body: {} }),
    ).toEqual(["status 200 has a body but the description documents none"]);
  });

  it("accepts any JSON error body, because the error body shape is not shown", () => {
    for (const body of [{ message: "x" }, { errors: [1] }, "text", null]) {
      expect(
        validateResponse({
          method: "GET",
          path: "/iam/clients/me",
          status: 401,
          contentType: "application/json",
          body,
        }),
      ).toEqual([]);
    }
  });

  it("refuses an operation the description does not have", () => {
    expect(validateResponse({ method: "DELETE", path: "/cloud/v1/regions", status: 200 })).toEqual([
      "DELETE /cloud/v1/regions is not an operation of the description",
    ]);
  });
});
