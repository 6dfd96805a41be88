// One router factory: every validation failure becomes the same 400 error shape.
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { describeZodError, errorBody } from "./errors";

const targetNames: Record<string, string> = {
  json: "request body",
  query: "query parameters",
  param: "path parameters",
  header: "headers",
  form: "form data",
};

export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    // `/api/companies/{id}/` and `/api/companies/{id}` are the same route.
    strict: false,
    defaultHook: (result, c) => {
      if (!result.success) {
        const { message, details } = describeZodError(result.error, targetNames[result.target] ?? result.target);
        return c.json(errorBody(message, details), 400);
      }
    },
  });
}
