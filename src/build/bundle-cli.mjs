// The second step of `npm run build` (after tsc): docsync's command line as ES module chunks in
// dist/bundle/, which `npm start`, the `docsync` bin and the container run. Loading ~700 modules from
// node_modules one by one was most of the time to /healthz; the bundle is a few files. Each dynamic
// `import()` of src/ stays a chunk of its own, so what loads lazily from dist/src loads lazily here.
// Plain JavaScript run by node, so that building needs esbuild and running the bundle nothing more.
import { cp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outdir = join(root, 'dist', 'bundle');

/**
 * Loaded from node_modules when they run, never bundled: what reads files next to itself
 * (bull-board's UI pages and assets, the OpenAPI validator's schema files), and msgpackr's optional
 * native extractor (BullMQ's msgpackr requires it inside a try, and falls back to JavaScript).
 */
const EXTERNAL = ['@bull-board/ui', '@seriousme/openapi-schema-validator', 'msgpackr-extract'];

/**
 * The bundle is ESM, but bundled CommonJS still calls require(): for Node's own modules and for the
 * external packages above, resolved from dist/bundle/ to node_modules like any module of the package.
 */
const BANNER =
  "import { createRequire as __docsyncCreateRequire } from 'node:module'; const require = __docsyncCreateRequire(import.meta.url);";

/**
 * A running process may still load chunks of the build it started from (the workers' modules, the
 * dashboard's): a rebuild leaves earlier chunks in place, and removes only those no build has
 * written for this long (each build touches its files, which esbuild leaves as they are when equal).
 */
const STALE_CHUNK_MS = 10 * 60 * 1000;

/**
 * Bundled CommonJS files that find their own package through `__dirname`, which an ES module has
 * not: each gets its folder in node_modules, resolved when it runs. ioredis reads its package.json
 * for the library version it tells Redis (CLIENT SETINFO); pino and thread-stream use theirs only
 * for worker-thread transports, which docsync does not use.
 */
const OWN_DIRNAME = [{ name: 'ioredis', files: /[\\/]node_modules[\\/]ioredis[\\/].*\.js$/ }];

/** @type {import('esbuild').Plugin} */
const ownDirname = {
  name: 'own-dirname',
  setup(builder) {
    for (const { name, files } of OWN_DIRNAME) {
      builder.onLoad({ filter: files }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('__dirname')) return undefined;
        const packageDir = args.path.slice(0, args.path.lastIndexOf(`${sep}${name}${sep}`) + name.length + 1);
        const folder = relative(packageDir, dirname(args.path))
          .split(sep)
          .filter((part) => part !== '');
        const parts = [`require('node:path').dirname(require.resolve('${name}/package.json'))`, ...folder];
        const prelude = `var __dirname = require('node:path').join(${parts.map((part, index) => (index === 0 ? part : JSON.stringify(part))).join(', ')});\n`;
        return { contents: prelude + source, loader: 'js' };
      });
    }
  },
};

/**
 * zod's `z.locales`, every language's error messages (a third of zod's code in the bundle, read at
 * each start): docsync speaks English, set by zod itself from `locales/en.js`. The namespace keeps
 * `en` only; any other locale would be undefined, and no code of docsync's reads one.
 */
/** @type {import('esbuild').Plugin} */
const englishOnly = {
  name: 'zod-english-only',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * `import { z } from 'zod'` takes zod's namespace as one value, which esbuild keeps whole (every
 * schema type and check, JSON Schema import, the ISO formats), all read before /healthz. Read as
 * `import * as z from 'zod'`, the same members (zod exports the namespace's members beside it), each
 * `z.member` is a binding esbuild follows: the bundle keeps the 195 KB of zod docsync uses, of 281.
 */
const ZOD_NAMED_IMPORT = /^import \{ z \} from 'zod';$/m;
const OWN_SOURCES = [join(root, 'src') + sep, join(root, 'jobs') + sep];

/** @type {import('esbuild').Plugin} */
const zodMembers = {
  name: 'zod-members',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!OWN_SOURCES.some((folder) => args.path.startsWith(folder))) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!ZOD_NAMED_IMPORT.test(source)) return undefined;
      return { contents: source.replace(ZOD_NAMED_IMPORT, "import * as z from 'zod';"), loader: 'ts' };
    });
  },
};

/**
 * What fastify requires as it loads but uses only when a server needs it: the default schema
 * compilers (ajv, fast-json-stringify: 400 KB, over a third of what serving read before /readyz) when a
 * route declares a JSON schema, which no server of docsync does; light-my-request for `inject()`
 * (the dashboard's /ui); node:http2 (4 ms to load) for an HTTP/2 server; proxy-addr (and ipaddr.js)
 * for `trustProxy`, which docsync does not set. Bundled or required as
 * fastify loads, each would be read, compiled and run at every start; here each loads, from where
 * fastify finds it, on first use. By the requiring file of fastify, the specifier, and its shape:
 * `selector` (a function fastify calls at every Fastify(), whose result it calls when compiling),
 * `module` (required where it is used already), `object` (whose members fastify reads when used).
 */
const FASTIFY_ON_USE = [
  { from: 'lib/schema-controller.js', name: '@fastify/ajv-compiler', shape: 'selector' },
  { from: 'lib/schema-controller.js', name: '@fastify/fast-json-stringify-compiler', shape: 'selector' },
  { from: 'fastify.js', name: 'light-my-request', shape: 'module' },
  { from: 'lib/server.js', name: 'node:http2', shape: 'object' },
  { from: 'lib/request.js', name: '@fastify/proxy-addr', shape: 'object' },
];

/** The module that stands for `name` until it is used; `load()` requires it as fastify would. */
const ON_USE_SOURCE = {
  selector: `module.exports = function selectorOnUse(...options) {
  let built;
  return function buildOnUse(...args) {
    built ??= load()(...options);
    return built(...args);
  };
};`,
  module: 'module.exports = load();',
  object: 'module.exports = new Proxy({}, { get: (_target, key) => load()[key] });',
};

/** The FASTIFY_ON_USE entries this build found where they are expected. */
const deferred = new Set();

/** @type {import('esbuild').Plugin} */
const fastifyOnUse = {
  name: 'fastify-on-use',
  setup(builder) {
    const fastifyFile = /[\\/]node_modules[\\/]fastify[\\/](.+)$/;
    const names = [...new Set(FASTIFY_ON_USE.map((entry) => entry.name))];
    const filter = new RegExp(`^(${names.map((name) => name.replace(/[/.:]/g, '\\$&')).join('|')})$`);
    builder.onResolve({ filter }, (args) => {
      const from = fastifyFile.exec(args.importer)?.[1]?.split(sep).join('/');
      const entry = FASTIFY_ON_USE.find(
        (candidate) => candidate.from === from && candidate.name === args.path,
      );
      if (entry !== undefined) deferred.add(entry);
      return entry === undefined
        ? undefined
        : { path: `${entry.shape}:${entry.name}`, namespace: 'fastify-on-use' };
    });
    builder.onLoad({ filter: /.*/, namespace: 'fastify-on-use' }, (args) => {
      const colon = args.path.indexOf(':');
      const [shape, name] = [args.path.slice(0, colon), args.path.slice(colon + 1)];
      return {
        // Resolved from fastify's own folder, where npm put what fastify depends on.
        contents: `const load = () => require('node:module').createRequire(require.resolve('fastify'))(${JSON.stringify(name)});\n${ON_USE_SOURCE[shape]}`,
        loader: 'js',
      };
    });
  },
};

const result = await build({
  absWorkingDir: root,
  // The OpenAPI worker thread's module (src/openapi/openapi-worker-pool.ts starts it from beside
  // the chunk that holds the pool): an entry of its own, so that a file of that name is there.
  entryPoints: { bin: 'src/cli/bin.ts', 'openapi-worker-main': 'src/openapi/openapi-worker-main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  banner: { js: BANNER },
  plugins: [ownDirname, englishOnly, zodMembers, fastifyOnUse],
  // Less to read and parse at each start; names stay, so errors and logs keep their class names.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});

// A fastify release that moved one of these imports still builds a working bundle, which only loads
// that module at every start again: say so, so that FASTIFY_ON_USE is brought up to date.
for (const entry of FASTIFY_ON_USE.filter((candidate) => !deferred.has(candidate))) {
  process.emitWarning(
    `fastify's ${entry.from} no longer imports ${entry.name}: the bundle loads it at start. Update FASTIFY_ON_USE in src/build/bundle-cli.mjs to where fastify imports it now.`,
    { code: 'DOCSYNC_BUNDLE_ON_USE_MISSED' },
  );
}

/**
 * docsync's Lua scripts that read BullMQ's keys, which their module reads from lua/ beside itself
 * (src/queue/bullmq-internals/bullmq-scripts.ts) when it loads: beside the bundle's chunks, and
 * beside tsc's output in dist/src, which copies only what it compiles.
 */
const LUA_SOURCE = join(root, 'src', 'queue', 'bullmq-internals', 'lua');
const LUA_FOLDER = 'lua';
for (const target of [
  join(outdir, LUA_FOLDER),
  join(root, 'dist', 'src', 'queue', 'bullmq-internals', LUA_FOLDER),
]) {
  await rm(target, { recursive: true, force: true });
  await cp(LUA_SOURCE, target, { recursive: true });
}

const written = new Set([LUA_FOLDER, ...Object.keys(result.metafile.outputs).map((file) => basename(file))]);
const now = new Date();
for (const file of await readdir(outdir)) {
  const path = join(outdir, file);
  if (written.has(file)) await utimes(path, now, now);
  else if (now.getTime() - (await stat(path)).mtimeMs > STALE_CHUNK_MS) await rm(path, { force: true });
}
