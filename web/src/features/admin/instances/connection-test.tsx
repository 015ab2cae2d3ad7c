// An instance's connection tested with its stored data sources (contract
// §9.3): UpdateInstance with validate_only, the data sources as read (their
// passwords stay on the server, matched by id), nothing stored.
import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { type Instance, InstanceService } from "@gen/svc/v1/instance_service_pb.js";
import { useState } from "react";
import { client } from "../../../api/clients.ts";
import { useAction } from "../../../hooks/use-action.ts";

export function ConnectionTest({ instance }: { instance: Instance }) {
  const action = useAction();
  const [version, setVersion] = useState<string>();
  const test = () =>
    action.run(async () => {
      setVersion(undefined);
      const tested = await client(InstanceService).updateInstance({
        instance: { name: instance.name, dataSources: instance.dataSources },
        updateMask: create(FieldMaskSchema, { paths: ["data_sources"] }),
        validateOnly: true,
      });
      setVersion(tested.engineVersion || "connected");
    });
  return (
    <div className="connection-test">
      <button type="button" className="button" disabled={action.pending} aria-busy={action.pending} aria-label={`Test connection to ${instance.title}`} onClick={() => void test()}>
        Test connection
      </button>
      <span role="status" className="hint">
        {version && `Connected (${version}).`}
      </span>
      {action.error && (
        <span role="alert" className="test-refusal">
          {action.error}
        </span>
      )}
    </div>
  );
}
