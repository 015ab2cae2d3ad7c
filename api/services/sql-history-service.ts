// SQLService.ListQueryHistories (contract §19.1): the caller's own query
// history; holders of bb.auditLogs.search anyone's.
import type { ServiceImpl } from "@connectrpc/connect";
import type { IamReads } from "../../shared/identity/index.ts";
import type { Db } from "../../shared/platform/index.ts";
import type { SQLService } from "../../shared/gen/svc/v1/sql_service_pb.js";
import { listQueryHistoryPage } from "../../shared/sql-editor/index.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { toQueryHistory } from "./sql-history-convert.ts";

export interface SqlHistoryDeps {
  db: Db;
  iam: IamReads;
}

export function sqlHistoryHandlers(deps: SqlHistoryDeps): Pick<ServiceImpl<typeof SQLService>, "listQueryHistories"> {
  return {
    async listQueryHistories(req, context) {
      const page = await listQueryHistoryPage(deps.db, deps.iam, callerOf(context), req);
      return { queryHistories: page.rows.map(toQueryHistory), nextPageToken: page.nextPageToken };
    },
  };
}
