// A service definition and its implementation, as registered with the server.
import type { DescMethod, DescMethodServerStreaming, DescMethodUnary, DescService } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";

export interface ServiceRegistration<S extends DescService = DescService> {
  service: S;
  impl: Partial<ServiceImpl<S>>;
}

export function registration<S extends DescService>(service: S, impl: Partial<ServiceImpl<S>>): ServiceRegistration {
  return { service, impl: impl as Partial<ServiceImpl<DescService>> };
}

export function isUnary(method: DescMethod): method is DescMethodUnary {
  return method.methodKind === "unary";
}

export function isServerStreaming(method: DescMethod): method is DescMethodServerStreaming {
  return method.methodKind === "server_streaming";
}
