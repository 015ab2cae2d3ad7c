// Picks the engine's Target implementation for a data source's connection settings.
import { checkExtraOptions } from "./connect-options.ts";
import { MysqlTarget } from "./mysql/my-target.ts";
import { PostgresTarget } from "./postgres/pg-target.ts";
import type { ConnectionConfig, Target } from "./target.ts";

/** Opens nothing yet: connections are made per call and closed by Target.close(). Throws invalid_argument for bad extraOptions. */
export function openTarget(config: ConnectionConfig): Target {
  checkExtraOptions(config);
  switch (config.engine) {
    case "POSTGRES":
      return new PostgresTarget(config);
    case "MYSQL":
      return new MysqlTarget(config);
  }
}
