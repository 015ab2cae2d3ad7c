// Instances ⇄ svc.v1 Instance. Data-source passwords go one way: in from
// requests, never out; replies carry `passwordSet` (contract §3.4).
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  DataSource_SslMode,
  DataSource_Type,
  DataSourceSchema,
  Engine,
  Instance_State,
  Instance_SyncState,
  InstanceSchema,
  type DataSource,
  type Instance,
} from "../../shared/gen/svc/v1/instance_service_pb.js";
import {
  type DataSourceDraft,
  type DataSourceType,
  type Engine as EngineName,
  type InstanceDraft,
  instanceName,
  type InstanceRow,
  type SslMode,
  type StoredDataSource,
} from "../../shared/inventory/index.ts";
import { environmentName } from "../../shared/governance/index.ts";

export function toInstance(row: InstanceRow): Instance {
  return create(InstanceSchema, {
    name: instanceName(row.id),
    title: row.title,
    engine: Engine[row.engine],
    environment: environmentName(row.environment),
    dataSources: row.dataSources.map(toDataSource),
    state: Instance_State[row.state],
    engineVersion: row.engineVersion,
    lastSyncTime: row.lastSyncTime && timestampFromDate(row.lastSyncTime),
    syncState: row.syncState ? Instance_SyncState[row.syncState] : Instance_SyncState.SYNC_STATE_UNSPECIFIED,
    syncError: row.syncError,
    creator: row.creator,
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
    etag: row.etag,
  });
}

function toDataSource(source: StoredDataSource): DataSource {
  const { password, ...shown } = source;
  return create(DataSourceSchema, {
    ...shown,
    type: DataSource_Type[source.type],
    sslMode: DataSource_SslMode[source.sslMode],
    passwordSet: password !== "",
  });
}

export function instanceDraft(instance: Instance | undefined): InstanceDraft {
  return {
    title: instance?.title ?? "",
    engine: instance?.engine ? (Engine[instance.engine] as EngineName) : undefined,
    environment: instance?.environment.trim() ?? "",
    dataSources: (instance?.dataSources ?? []).map(dataSourceDraft),
  };
}

function dataSourceDraft(source: DataSource): DataSourceDraft {
  return {
    id: source.id,
    type: source.type ? (DataSource_Type[source.type] as DataSourceType) : undefined,
    host: source.host,
    port: source.port,
    username: source.username,
    password: source.password,
    database: source.database,
    sslMode: source.sslMode ? (DataSource_SslMode[source.sslMode] as SslMode) : undefined,
    sslCa: source.sslCa,
    extraOptions: source.extraOptions,
  };
}
