// The explicit task list: every job of the catalogue and its handler.
import type { TaskList } from "graphile-worker";
import type { JobName } from "../shared/jobs/catalog.ts";
import type { Db } from "../shared/platform/db.ts";
import { cleanupJobs } from "./tasks/cleanup-jobs.ts";
import { cleanupSignInState } from "./tasks/cleanup-sign-in-state.ts";

export function createTaskList(db: Db): TaskList & Record<JobName, unknown> {
  return {
    "maintenance.cleanupJobs": cleanupJobs(db),
    "maintenance.cleanupSignInState": cleanupSignInState(db),
  };
}
