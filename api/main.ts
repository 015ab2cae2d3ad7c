// The API process (Procfile `web`): serves every RPC; runs no jobs.
import { runProcess } from "../shared/platform/index.ts";
import { openResources } from "../shared/resources.ts";
import { startApi } from "./server.ts";

await runProcess("api", async (context) => {
  const resources = await openResources(context);
  const api = await startApi({ ...context, ...resources, isLeader: () => false });
  context.onStop(() => api.stop());
});
