// The all-in-one process (`npm start`, for small installs): the API and a
// worker. The API and the worker never import each other; this composition
// root is the only place that holds both.
import { startApi } from "./api/server.ts";
import { runProcess } from "./shared/platform/index.ts";
import { openResources } from "./shared/resources.ts";
import { startWorker } from "./worker/worker.ts";

await runProcess("server", async (context) => {
  const resources = await openResources(context);
  const { externalUrl, webhookAllowPrivate } = context.config;
  const worker = await startWorker({ ...resources, url: resources.store.url, logger: context.logger, externalUrl, webhookAllowPrivate });
  context.onStop(() => worker.stop());
  const api = await startApi({ ...context, ...resources, isLeader: worker.leadership.isLeader });
  context.onStop(() => api.stop());
});
