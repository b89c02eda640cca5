// The environment Kubernetes gives a container: its `envFrom` Secrets and ConfigMaps, then its `env`
// in order (a later entry wins), with `valueFrom` read from the manifests and the pod's fields given,
// and `$(NAME)` replaced by an earlier variable as the kubelet does (`$$(NAME)` stays literal).

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  /** Read by each test as the kind it expects. */
  spec?: unknown;
}

export interface ContainerEnvSource {
  env?: Array<{
    name: string;
    value?: string;
    valueFrom?: {
      fieldRef?: { fieldPath: string };
      secretKeyRef?: { name: string; key: string };
      configMapKeyRef?: { name: string; key: string };
    };
  }>;
  envFrom?: Array<{ secretRef?: { name: string }; configMapRef?: { name: string } }>;
}

export function containerEnv(
  container: ContainerEnvSource,
  objects: readonly KubernetesObject[],
  podFields: Readonly<Record<string, string>>,
): Record<string, string> {
  const find = (kind: string, name: string) => {
    const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
    if (found === undefined) throw new Error(`no ${kind} ${name} among the manifests`);
    return found;
  };
  const secretData = (name: string): Record<string, string> => {
    const secret = find('Secret', name);
    const decoded = Object.fromEntries(
      Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString()]),
    );
    return { ...decoded, ...secret.stringData };
  };
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.secretRef) Object.assign(env, secretData(source.secretRef.name));
    if (source.configMapRef) Object.assign(env, find('ConfigMap', source.configMapRef.name).data);
  }
  for (const entry of container.env ?? []) {
    const from = entry.valueFrom;
    let value: string | undefined;
    if (entry.value !== undefined) {
      value = entry.value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (match, name?: string) =>
        match === '$$' ? '$' : name !== undefined && env[name] !== undefined ? env[name] : match,
      );
    } else if (from?.fieldRef) value = podFields[from.fieldRef.fieldPath];
    else if (from?.secretKeyRef) value = secretData(from.secretKeyRef.name)[from.secretKeyRef.key];
    else if (from?.configMapKeyRef)
      value = find('ConfigMap', from.configMapKeyRef.name).data?.[from.configMapKeyRef.key];
    if (value === undefined) throw new Error(`env ${entry.name}: no value`);
    env[entry.name] = value;
  }
  return env;
}
