// deploy/kubernetes/ against docsync itself: the ConfigMap's file is a valid configuration under the
// environment the Deployment gives (Secret, pod IP), its ports and probe paths are the ones the HTTP
// server serves, the grace period outlasts docsync's own shutdown, and docsync run with the pod's
// arguments and environment answers both probes, imports, stays within the memory it requests, and
// stops on the kubelet's SIGTERM with exit 0. (The pod's IP and port become 127.0.0.1 and a free
// port; the service, repository and Redis are local ones.)
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parseDocument } from 'yaml';
import { loadConfig } from '../../../src/config/load-config.js';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { cliEnv, startCli } from '../../support/cli-process.js';
import { containerEnv, type KubernetesObject } from '../../support/container-env.js';
import { freePort } from '../../support/free-port.js';
import { createTestRepo } from '../../support/git-repos.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { redisUrl, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const DIR = join(PACKAGE_ROOT, 'deploy', 'kubernetes');
const POD_IP = '10.1.2.3';

interface Probe {
  httpGet?: { path: string; port: string | number };
  exec?: { command: string[] };
}

interface Container {
  name: string;
  image: string;
  args: string[];
  ports: Array<{ name: string; containerPort: number }>;
  livenessProbe: Probe;
  readinessProbe: Probe;
  resources: { requests: { memory: string; cpu: string }; limits?: { memory?: string } };
  volumeMounts: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
  securityContext?: { readOnlyRootFilesystem?: boolean };
}

interface DeploymentSpec {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: {
    metadata: { labels: Record<string, string> };
    spec: {
      terminationGracePeriodSeconds: number;
      containers: Container[];
      volumes: Array<{ name: string; configMap?: { name: string }; emptyDir?: object }>;
    };
  };
}

async function readManifests(): Promise<KubernetesObject[]> {
  const kustomization = parseDocument(await readFile(join(DIR, 'kustomization.yaml'), 'utf8')).toJS() as {
    resources: string[];
  };
  // Every file of the folder is applied by `kubectl apply -k`, and only those.
  const files = (await readdir(DIR)).filter(
    (file) => file.endsWith('.yaml') && file !== 'kustomization.yaml',
  );
  expect([...kustomization.resources].sort()).toEqual(files.sort());
  const objects: KubernetesObject[] = [];
  for (const file of kustomization.resources) {
    for (const document of parseAllDocuments(await readFile(join(DIR, file), 'utf8'))) {
      if (document.errors.length > 0) throw document.errors[0];
      objects.push(document.toJS() as KubernetesObject);
    }
  }
  return objects;
}

function one(objects: readonly KubernetesObject[], kind: string): KubernetesObject {
  const found = objects.filter((object) => object.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0] as KubernetesObject;
}

/** Kubernetes quantities of memory (`192Mi`, `1Gi`, `500M`) in MiB. */
function mebibytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity);
  if (match === null) throw new Error(`not a memory quantity: ${quantity}`);
  const factor: Record<string, number> = {
    Ki: 1 / 1024,
    Mi: 1,
    Gi: 1024,
    K: 1000 / 1048576,
    M: 1e6 / 1048576,
    G: 1e9 / 1048576,
  };
  return Number(match[1]) * (factor[match[2] ?? ''] ?? 1 / 1048576);
}

async function theDeployment() {
  const objects = await readManifests();
  const deployment = one(objects, 'Deployment');
  const spec = deployment.spec as DeploymentSpec;
  const container = spec.template.spec.containers[0] as Container;
  const configMap = one(objects, 'ConfigMap');
  const configArg = container.args[container.args.indexOf('--config') + 1] as string;
  // The file --config names is a key of the ConfigMap, mounted where the argument says.
  const mount = container.volumeMounts.find((entry) => configArg.startsWith(`${entry.mountPath}/`));
  const volume = spec.template.spec.volumes.find((entry) => entry.name === mount?.name);
  expect(volume?.configMap?.name).toBe(configMap.metadata.name);
  const key = configArg.slice((mount?.mountPath.length ?? 0) + 1);
  const configText = configMap.data?.[key];
  if (configText === undefined) throw new Error(`the ConfigMap has no ${key}`);
  const env = containerEnv(container as never, objects, { 'status.podIP': POD_IP });
  return { objects, deployment, spec, container, configText, env };
}

describe('deploy/kubernetes', () => {
  it('is a valid configuration under the pod environment, served on the ports and paths the probes use', async () => {
    const { objects, spec, container, configText, env } = await theDeployment();
    const dir = await tempDir('k8s-config');
    const file = join(dir, 'docsync.yaml');
    await writeFile(file, configText);
    const config = await loadConfig(file, env);

    const http = container.ports.find((port) => port.name === 'http');
    expect(config.http.listen).toEqual({ host: '0.0.0.0', port: http?.containerPort });
    // The service fetches each replica's bundles from that replica.
    expect(config.http.publicUrl).toBe(`http://${POD_IP}:${http?.containerPort}`);
    expect(config.http.token).toBeDefined();
    expect(config.redis.url).toBeDefined();
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    const readiness = container.readinessProbe.exec?.command.join(' ') ?? '';
    expect(readiness).toContain(`/dev/tcp/127.0.0.1/${http?.containerPort}`);
    expect(readiness).toContain('GET /readyz ');
    // The data folder is a writable volume of the pod, not the (read-only) image.
    const data = container.volumeMounts.find((entry) => entry.mountPath === config.dataDir);
    expect(spec.template.spec.volumes.find((entry) => entry.name === data?.name)?.emptyDir).toBeDefined();
    expect(data?.readOnly).not.toBe(true);

    // SIGKILL only after docsync's own forced exit, with time to spare.
    expect(spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(
      config.shutdownTimeout + 10_000,
    );
    // Several replicas, and a drain never takes the last one.
    expect(spec.replicas).toBeGreaterThanOrEqual(2);
    const budget = one(objects, 'PodDisruptionBudget').spec as {
      minAvailable: number;
      selector: { matchLabels: Record<string, string> };
    };
    expect(budget.minAvailable).toBeGreaterThanOrEqual(1);
    expect(budget.minAvailable).toBeLessThan(spec.replicas);
    expect(spec.template.metadata.labels).toMatchObject(budget.selector.matchLabels);
    expect(spec.template.metadata.labels).toMatchObject(spec.selector.matchLabels);
    const service = one(objects, 'Service').spec as {
      selector: Record<string, string>;
      ports: Array<{ targetPort: string }>;
    };
    expect(spec.template.metadata.labels).toMatchObject(service.selector);
    expect(service.ports.map((port) => port.targetPort)).toEqual(['http']);
    expect(mebibytes(container.resources.requests.memory)).toBeLessThanOrEqual(
      mebibytes(container.resources.limits?.memory ?? container.resources.requests.memory),
    );
  });

  it(
    'runs with the pod arguments: both probes pass, it imports within its memory request, and SIGTERM stops it with 0',
    async () => {
      const { spec, container, configText, env } = await theDeployment();
      const emulator = await startTestEmulator();
      const space = await createTestSpace(emulator);
      const repo = await createTestRepo('main');
      await repo.commit(
        { 'docs/README.md': '# Docs\n\nSee [the guide](guide.md).\n', 'docs/guide.md': '# Guide\n' },
        'docs',
      );
      await repo.push();
      const prefix = uniquePrefix('k8s');
      testRedis(prefix);
      const dir = await tempDir('k8s-pod');

      // What the manifests leave to whoever deploys them: the service, the space, the repository.
      const document = parseDocument(configText);
      document.setIn(['dataDir'], join(dir, 'data'));
      document.setIn(['service', 'baseUrl'], emulator.baseUrl);
      document.setIn(['redis', 'prefix'], prefix);
      document.setIn(['mappings', 0, 'space'], space);
      document.setIn(['mappings', 0, 'git', 'repo'], repo.remote);
      const file = join(dir, 'docsync.yaml');
      await writeFile(file, document.toString());

      const http = container.ports.find((port) => port.name === 'http')?.containerPort as number;
      const port = await freePort();
      const local = (text: string) =>
        text
          .replaceAll(`${POD_IP}:${http}`, `127.0.0.1:${port}`)
          .replaceAll(`0.0.0.0:${http}`, `127.0.0.1:${port}`);
      const podEnv: Record<string, string> = {
        ...Object.fromEntries(Object.entries(env).map(([name, value]) => [name, local(value)])),
        REDIS_URL: redisUrl(),
        DOCSYNC_TOKEN: emulator.tokens.admin,
      };
      const args = container.args.map((arg) => (arg.endsWith('.yaml') ? file : arg));
      // As the image runs it: the bundle its entry point names.
      const run = startCli(args, {
        command: [process.execPath, join(PACKAGE_ROOT, 'dist', 'bundle', 'bin.js')],
        env: cliEnv(podEnv),
      });
      await run.waitForLog('docsync started', 30_000);
      const origin = `http://127.0.0.1:${port}`;

      // Liveness: the path, without the token.
      const liveness = container.livenessProbe.httpGet as { path: string };
      expect((await fetch(`${origin}${liveness.path}`)).status).toBe(200);
      // Readiness: the probe's own command, with the pod's environment; a wrong token fails it.
      const [program, ...probeArgs] = (container.readinessProbe.exec?.command ?? []).map((arg) =>
        arg.replaceAll(`/dev/tcp/127.0.0.1/${http}`, `/dev/tcp/127.0.0.1/${port}`),
      );
      const probe = (token: string) =>
        new Promise<number | null>((resolve, reject) => {
          const child = spawn(program as string, probeArgs, {
            env: cliEnv({ DOCSYNC_HTTP_TOKEN: token }),
            stdio: 'ignore',
          });
          child.once('error', reject);
          child.once('exit', (code) => resolve(code));
        });
      expect(await probe(podEnv.DOCSYNC_HTTP_TOKEN as string)).toBe(0);
      expect(await probe('not-the-token-of-this-pod')).not.toBe(0);

      // Work: the commit becomes a change request, its bundle fetched at the pod's public address.
      await waitFor(
        () =>
          run
            .lines()
            .find(
              (line) =>
                line.msg === 'job completed' && line.name === 'import-content' && line.result === 'imported',
            ),
        'the import of the commit',
        60_000,
      );
      const memory = await readFile(`/proc/${run.child.pid as number}/status`, 'utf8');
      const peakMiB = Number(/^VmHWM:\s+(\d+) kB/m.exec(memory)?.[1]) / 1024;
      process.stderr.write(`kubernetes pod: docsync peak resident memory ${Math.round(peakMiB)} MiB\n`);
      expect(peakMiB).toBeLessThanOrEqual(mebibytes(container.resources.requests.memory));

      // The kubelet's SIGTERM: a clean stop, well within the grace period.
      const stopping = Date.now();
      run.child.kill('SIGTERM');
      expect(await run.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - stopping).toBeLessThan(spec.template.spec.terminationGracePeriodSeconds * 1000);
      expect(run.lines().at(-1)).toMatchObject({ msg: 'shutdown complete', exitCode: 0 });
      expect(run.lines().filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
    },
    3 * 60_000,
  );
});

// The image the Deployment names is the one the Dockerfile builds: its entry point takes `args`.
describe('deploy/kubernetes and the Dockerfile', () => {
  it('passes docsync commands as args to the image entry point, and no command of its own', async () => {
    const { container } = await theDeployment();
    expect(container).not.toHaveProperty('command');
    expect(container.args[0]).toBe('start');
    // The image runs what the package's `docsync` bin runs (the bundle).
    const manifest = JSON.parse(await readFile(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      bin: { docsync: string };
    };
    expect(manifest.bin.docsync).toBe('dist/bundle/bin.js');
    expect(await readFile(join(PACKAGE_ROOT, 'Dockerfile'), 'utf8')).toContain(
      `ENTRYPOINT ["node", "${manifest.bin.docsync}"]`,
    );
  });
});
