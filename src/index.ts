// Worker entry: HTTP, the per-minute cron, and the company Durable Object class.
import { createApp } from "./app";
import { runScheduledTick } from "./scheduler/tick";

export { CompanyDurableObject } from "./company/durable-object";

const app = createApp();

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduledTick(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
