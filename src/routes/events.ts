// The company's outbound events as a live stream (Server-Sent Events, served by the company's event
// hub) and as a list of the retained ones. Board callers and the company's agents (agents see no
// finance events); another company's callers are refused before the stream opens.
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http/router";
import { dbOf } from "../http/db";
import { requireCompanyAccess } from "../http/access";
import { CompanyIdParam, errors, jsonContent } from "../schemas/common";
import { EVENT_CATALOGUE_DESCRIPTION, EventListQuery, EventPageSchema, StreamHeaders, StreamQuery } from "../schemas/events";
import { listEvents, parseTypes } from "../domain/events/queries";
import { eventsHub, STREAM_HEADERS } from "../company/client";
import { EVENT_RETENTION_COUNT } from "../domain/events/retention";

const tags = ["Events"];
const RETENTION = `Events are kept at least 24 h and at least the company's last ${EVENT_RETENTION_COUNT.toLocaleString("en-US")} (whichever keeps more).`;

export const eventsRouter = createRouter();

eventsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/events/stream",
    tags,
    summary: "Follow the company's events live (Server-Sent Events)",
    description:
      "`text/event-stream`: `id:` is the event id, `event:` its type, `data:` the event as JSON; a `: keep-alive` comment every 15 s. " +
      "Reconnect with `Last-Event-ID` to resume without gaps or duplicates (409 when that event is no longer retained). `types` filters with exact types or `prefix.*` wildcards. " +
      `${RETENTION} Agents see no budget, cost or ping events.\n\n${EVENT_CATALOGUE_DESCRIPTION}`,
    request: { params: CompanyIdParam, query: StreamQuery, headers: StreamHeaders },
    responses: {
      200: { description: "The event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
      ...errors(400, 401, 403, 404, 409),
    },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const types = parseTypes(c.req.valid("query").types);
    const headers = new Headers({ [STREAM_HEADERS.company]: companyId });
    if (types) headers.set(STREAM_HEADERS.types, types.join(","));
    const lastEventId = c.req.valid("header")["last-event-id"]?.trim();
    if (lastEventId) headers.set(STREAM_HEADERS.lastEventId, lastEventId);
    if (c.get("actor").type === "agent") headers.set(STREAM_HEADERS.agent, "1");
    return eventsHub(c.env, companyId).fetch(new Request("https://events.internal/stream", { headers })) as never;
  },
);

eventsRouter.openapi(
  createRoute({
    method: "get",
    path: "/api/companies/{companyId}/events",
    tags,
    summary: "The company's retained events, oldest first (after an event id)",
    description: `${RETENTION} Agents see no budget, cost or ping events.`,
    request: { params: CompanyIdParam, query: EventListQuery },
    responses: { 200: jsonContent(EventPageSchema, "Events"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { companyId } = c.req.valid("param");
    await requireCompanyAccess(c, companyId);
    const query = c.req.valid("query");
    const page = await listEvents(dbOf(c), companyId, {
      types: parseTypes(query.types),
      after: query.after ?? query.cursor,
      limit: query.limit,
      agent: c.get("actor").type === "agent",
    });
    return c.json(page, 200);
  },
);
