// What each key of the configuration means, by its path (`mappings[].git.poll`: `[]` is an item of
// a list), for the JSON Schema editors read and the generated reference
// (docs/reference/configuration.md). Kept beside the schema: a test fails when a key has no
// description here, or a description names a key the schema does not have.
export const CONFIG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  dataDir:
    "Folder for docsync's own files (the embedded Redis, git mirrors, bundles), relative to the working directory.",
  service: 'The documentation service. Required as soon as there is a mapping or an OpenAPI spec.',
  'service.baseUrl': "Base address of the service's API, ending in /v1.",
  'service.token':
    'Bearer token of the account docsync acts as. Redacted from every log line and error; keep it in the environment (${DOCSYNC_TOKEN}).',
  'service.timeout': 'How long one request to the service may take.',
  'service.rateLimit':
    "The service's rate limit for the token, shared by every docsync process on the same Redis: no window of `per` sees more than `requests` requests from all of them together. Requests that change something (imports, merges, uploads) go first; reads (polls, link checks) leave the last quarter of the budget to them. Unset: each process sends as it needs and waits out the service's 429 answers.",
  'service.rateLimit.requests': 'Requests the service allows in each window of `per`.',
  'service.rateLimit.per': 'The window of the limit, such as 1m.',
  redis:
    'The Redis that holds the queues and the cache of state. Unset: docsync starts its own redis-server from PATH on a free port, with append-only persistence under <dataDir>/redis/.',
  'redis.url': 'A Redis 6.2+ to use: redis:// or rediss:// (TLS); a password in the URL is never logged.',
  'redis.cluster':
    'A Redis Cluster instead of url. The prefix must then carry a hash tag, such as "{docsync}".',
  'redis.cluster.nodes': "The cluster's seed nodes, as redis:// or rediss:// URLs.",
  'redis.sentinel':
    'A primary and its replicas watched by Redis Sentinel, instead of url: docsync asks the sentinels where the primary is and follows it through a failover.',
  'redis.sentinel.sentinels':
    'The sentinels: host:port, or a URL when one needs a password (redis://:secret@host:26379) or TLS (rediss://).',
  'redis.sentinel.name': 'The name the sentinels monitor the primary under (sentinel monitor <name> ...).',
  'redis.sentinel.username': "The primary's and replicas' ACL user; a sentinel's own goes in its URL.",
  'redis.sentinel.password': "The primary's and replicas' password; a sentinel's own goes in its URL.",
  'redis.tls': 'What a rediss:// connection trusts and shows: PEM files, read at start.',
  'redis.tls.ca': "The CA to trust instead of the system's (a PEM file).",
  'redis.tls.cert': 'The client certificate Redis may ask for (a PEM file).',
  'redis.tls.key': "The client certificate's private key (a PEM file).",
  'redis.prefix':
    'Prefix of every key docsync writes. Processes that share a prefix share the work; with Redis Cluster write it with a hash tag, such as "{docsync}".',
  http: "docsync's HTTP server: /healthz, /readyz, /status, the status page, /metrics, the push webhook and bundle addresses.",
  'http.listen': 'Address of the HTTP server (host:port). Anything but a loopback address needs http.token.',
  'http.publicUrl':
    'Address at which the documentation service reaches this server, to fetch import bundles. Not needed with artifacts.s3.',
  'http.token':
    'Bearer token required on every path but /healthz, /hooks/git and signed /artifacts/ addresses (16 characters at least). Unset: no token.',
  'http.artifactSecret':
    'Key that signs the bundle addresses given to the service (32 characters at least). Unset: a random key per process; set it when several processes answer behind one publicUrl.',
  'http.artifactTtl': 'How long a bundle address stays valid, and its file with it.',
  'http.dashboard': 'The queue dashboard (bull-board) at /ui, next to the status page at /.',
  'http.dashboard.enabled': 'Serve the dashboard.',
  'http.dashboard.readOnly':
    'Read-only by default; false lets whoever holds http.token retry, promote and clean jobs and pause queues.',
  artifacts:
    "Where import bundles wait for the service to fetch them. Default: docsync's data folder, served at http.publicUrl.",
  'artifacts.s3':
    'An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Google Cloud Storage): the service gets a presigned address and never needs to reach docsync. Credentials come from the AWS SDK chain (environment, shared files, web identity).',
  'artifacts.s3.bucket': 'The bucket.',
  'artifacts.s3.prefix': 'Prepended to every object key.',
  'artifacts.s3.region': "The bucket's region. Default: the SDK's (AWS_REGION).",
  'artifacts.s3.endpoint': "An S3-compatible store's address; AWS's own when absent.",
  'artifacts.s3.forcePathStyle':
    'Bucket in the path rather than the host name (MinIO and most self-hosted stores).',
  'artifacts.s3.expires': 'How long the address handed to the service stays valid; older objects are swept.',
  'artifacts.s3.partSize': 'Bundles larger than this upload in parts of this size.',
  hooks: 'The push webhook, POST /hooks/git: a push to a mapped repository and branch polls it at once.',
  'hooks.secret':
    'For GitHub, the webhook secret (X-Hub-Signature-256 is checked). Unset: GitHub pushes are refused.',
  'hooks.safetyPoll':
    "How often a repository whose push webhooks arrive is still polled, as a safety net for a lost webhook (a mapping's git.poll when that is longer). A commit that this poll finds, which no webhook announced, brings back git.poll. 1s: always git.poll.",
  'hooks.gitlabToken':
    'For GitLab, the secret token (X-Gitlab-Token is checked). Unset: GitLab pushes are refused.',
  dryRun:
    'Plan and log every step of every import without changing anything (also: docsync start --dry-run).',
  log: 'Logging: pino JSON lines on stdout.',
  'log.level': 'fatal, error, warn, info, debug or trace. --log-level overrides it.',
  queues:
    'The BullMQ queues: how many jobs run at once, retries, locks, and how long finished jobs are kept.',
  'queues.concurrency': 'Jobs running at once per queue in this process.',
  'queues.attempts':
    'Attempts of a job that fails for a passing reason (network, 5xx, 429); permanent failures (invalid input, other 4xx) fail at once.',
  'queues.backoff': 'First retry delay; it doubles with each attempt, with up to 50% random jitter.',
  'queues.lockDuration':
    "How long a running job's lock lasts unless renewed (BullMQ renews it at half of this); a job whose process died runs again within lockDuration + stalledInterval.",
  'queues.stalledInterval':
    'How often workers look for jobs whose lock expired (their process died) to run them again.',
  'queues.keepCompleted':
    'How many completed jobs Redis keeps, and for how long, for the status page and for debugging.',
  'queues.keepCompleted.count': 'Completed jobs kept per queue.',
  'queues.keepCompleted.age': 'How long a completed job is kept.',
  'queues.keepFailed': 'How many failed jobs Redis keeps, and for how long.',
  'queues.keepFailed.count': 'Failed jobs kept per queue.',
  'queues.keepFailed.age': 'How long a failed job is kept.',
  locks: 'Jobs that change one space never run at once, in any process: they take a lock in Redis.',
  'locks.ttl': 'A lock expires after this unless renewed (it is renewed every ttl/3 while the job runs).',
  'locks.busyDelay':
    'A job that finds its space locked is delayed by about this long (0.5x to 1.5x), never dropped.',
  shutdownTimeout:
    'On SIGINT or SIGTERM docsync stops taking jobs and lets running ones finish; after this long (or a second signal) it aborts them and exits with code 1.',
  health: 'When a mapping or spec counts as failing.',
  'health.failingAfter':
    'A mapping or spec is failing (status page headline, /metrics, docsync status exits 1) after this many failures in a row of one job; fewer is degraded. A success makes it ok again.',
  mappings:
    'Folders of git branches kept in sync with spaces of the service. An entry with git.branch is one branch and one space; one with git.branches is versioned docs: one space per matching branch.',
  'mappings[].name':
    'Unique name: lower-case letters, digits, - and _. It appears in job ids, logs and the status page.',
  'mappings[].space': 'The space this mapping writes to (its id). Two mappings never share a space.',
  'mappings[].direction': 'git-to-space (default), space-to-git, or both.',
  'mappings[].git': 'The repository and the folder of it that holds the docs.',
  'mappings[].git.repo':
    "Any URL git understands, a local path or file:// included. Credentials come from git.auth, else from git's own environment (credential helpers, GIT_ASKPASS, SSH agent).",
  'mappings[].git.auth':
    'Credentials for a private repository, named, never written here: a token from a variable (HTTPS), a GitHub App (HTTPS on GitHub), or an SSH key with its known hosts.',
  'mappings[].git.auth.tokenEnv': 'The environment variable that holds the token (HTTPS).',
  'mappings[].git.auth.username': 'The user name sent with the token.',
  'mappings[].git.auth.githubApp': 'Installation tokens of a GitHub App, minted and renewed by docsync.',
  'mappings[].git.auth.githubApp.appId': "The app's id.",
  'mappings[].git.auth.githubApp.installationId':
    "The id of the app's installation on the repository's owner.",
  'mappings[].git.auth.githubApp.privateKeyFile':
    "The app's private key: a PEM file, as GitHub gives it to download.",
  'mappings[].git.auth.githubApp.privateKeyEnv':
    "Or the variable holding the app's private key (the PEM text).",
  'mappings[].git.auth.githubApp.apiUrl':
    "GitHub's API; for GitHub Enterprise Server https://github.example.com/api/v3.",
  'mappings[].git.auth.sshKeyFile': 'For SSH remotes (ssh:// or git@host:path): the private key file.',
  'mappings[].git.auth.knownHostsFile':
    'The host keys the remote must show (ssh-keyscan host > known_hosts, then checked by a person).',
  'mappings[].git.branch': 'The branch to follow.',
  'mappings[].git.branches':
    'Versioned docs: the branches to follow, each in a space of its own (a * matches within one path segment, ** across segments).',
  'mappings[].git.dir': 'The folder of the repository that holds the docs (default: the whole repository).',
  'mappings[].git.poll': 'How often to look for new commits.',
  'mappings[].git.watch':
    'A local working copy to watch: saved changes under dir are imported after a pause.',
  'mappings[].git.watch.path': 'The working copy.',
  'mappings[].git.watch.debounce': 'The pause after the last saved change before the import.',
  'mappings[].changeRequest': 'The change requests docsync opens and looks after.',
  'mappings[].changeRequest.subject':
    'Subject of the change request docsync opens, from {message}, {shortSha}, {sha}, {branch}, {author}.',
  'mappings[].changeRequest.autoUpdate':
    'When to bring an outdated change request up to date: always, before-merge (default), never.',
  'mappings[].changeRequest.manage':
    'Which open change requests docsync looks after: own (the ones it opened) or all.',
  'mappings[].changeRequest.poll': "How often to look at the space's open change requests.",
  'mappings[].merge': 'Merging change requests that pass every check.',
  'mappings[].merge.enabled': 'Merge change requests that pass every check below (off by default).',
  'mappings[].merge.approvals': 'Approving reviews needed on the current revision, from distinct people.',
  'mappings[].merge.resolvedComments': 'Require every comment of the change request to be resolved.',
  'mappings[].merge.noBrokenLinks':
    'Require the last link check of the revision to have found no broken link.',
  'mappings[].merge.blockSubject':
    'Never merge a change request whose subject matches this regular expression.',
  'mappings[].links':
    'Link checks of the live content on a schedule. Without every or pattern, links are checked only after imports, updates and merges.',
  'mappings[].links.every': 'Check every this long (such as 6h).',
  'mappings[].links.pattern': 'Or a cron pattern (such as "0 */6 * * *").',
  'mappings[].links.tz': 'The time zone of pattern (such as Europe/Paris).',
  'mappings[].links.comment': 'Keep one comment listing the broken links on the change request.',
  'mappings[].export':
    'Space to git: edits made in the service brought back as commits (direction space-to-git or both).',
  'mappings[].export.poll': 'How often to look for edits made in the service.',
  'mappings[].export.author': 'Author of the commits that bring those edits to git.',
  'mappings[].export.author.name': "The author's name.",
  'mappings[].export.author.email': "The author's email address.",
  'mappings[].export.maxFileBytes':
    'Files of the space larger than this fail the export, which says which file.',
  'mappings[].import': 'What an import sends: limits, files left out, unlisted pages.',
  'mappings[].import.limits':
    'What the service accepts in one import (the defaults are its limits; maxFiles is a guard against a folder gone wrong): a folder past them is refused before anything is bundled or sent, naming its largest files.',
  'mappings[].import.limits.maxBytes': 'The largest bundle.',
  'mappings[].import.limits.maxFileBytes': 'The largest file.',
  'mappings[].import.limits.maxFiles': 'The most files.',
  'mappings[].import.skipFilesOver':
    'Leave out every file larger than this (each one a warning; it stays in git) instead of refusing the folder. Unset: nothing is left out by size.',
  'mappings[].import.unlisted':
    "Markdown pages SUMMARY.md does not list: skip (the service's rule: not pages, one warning each, never touched by an export) or append (pages after the listed ones, under the README of the nearest folder above).",
  'mappings[].report':
    "Each imported commit's status `docsync` on the git host: pending while importing, then imported, merged or failed. Exactly one host.",
  'mappings[].report.github': 'Commit statuses on GitHub.',
  'mappings[].report.github.repo': 'owner/name of the repository.',
  'mappings[].report.github.tokenEnv':
    'The variable holding a token that may write commit statuses. Leave it out when git.auth is a githubApp: its installation token posts the statuses.',
  'mappings[].report.github.apiUrl':
    "GitHub's API; for GitHub Enterprise Server https://github.example.com/api/v3.",
  'mappings[].report.gitlab': 'Commit statuses on GitLab.',
  'mappings[].report.gitlab.url': 'The GitLab instance.',
  'mappings[].report.gitlab.project': 'The project: its path (group/docs) or id.',
  'mappings[].report.gitlab.tokenEnv': 'The variable holding a token that may write commit statuses.',
  'mappings[].spaces': 'Versioned docs: the space made for each branch.',
  'mappings[].spaces.org': 'The organization the spaces are made in.',
  'mappings[].spaces.title': 'Title of each space; {branch} and {version} (release/2.1 -> 2.1) are replaced.',
  'mappings[].spaces.collection': 'A collection the spaces are moved into, made when missing.',
  'mappings[].spaces.customFields':
    'Custom fields set on each space ({branch} and {version} replaced), besides the marker field docsync-version that finds a space again.',
  'mappings[].site': 'Versioned docs: each space published as a variant of a site section.',
  'mappings[].site.org': "The site's organization.",
  'mappings[].site.site': 'Id or title of the site.',
  'mappings[].site.section': 'The site section, made when missing.',
  'mappings[].site.path':
    "The variant's path ({branch}, {version}): lower case, runs of other characters than a-z 0-9 . _ - become one -.",
  'mappings[].site.default': 'The branch published as the default variant.',
  'mappings[].onBranchDelete':
    'When a branch is deleted: keep its space, archive it (taken off the site) or delete it (only spaces docsync made).',
  openapi: 'OpenAPI specifications re-uploaded on a schedule; the service keeps a version per new content.',
  'openapi[].org': 'Organization of the spec in the service.',
  'openapi[].slug': 'Slug of the spec in the service.',
  'openapi[].source':
    'Where the spec comes from: an http(s) URL, { mapping, path } for a file of a mapped repository at its branch, or { file } for a local path.',
  'openapi[].source.mapping': 'The mapping whose repository holds the spec.',
  'openapi[].source.path':
    'Path from the repository root. Also refreshed as soon as the git poll of the mapping sees a commit change it.',
  'openapi[].source.file': 'A local path, relative to the folder docsync starts in.',
  'openapi[].source.root':
    "A wider folder $refs may reach (relative to the same place as file; for { mapping, path }: the repository root); a $ref outside it is refused. Default: the spec's own folder.",
  'openapi[].every': 'Refresh every this long (such as 1h).',
  'openapi[].pattern': 'Or a cron pattern (such as "15 3 * * *").',
  'openapi[].tz': 'The time zone of pattern.',
  'openapi[].upload':
    'text: docsync uploads the bytes it validated (default); url: the service fetches the URL itself.',
  'openapi[].jitter':
    'A delay in [0, jitter) added to each run, fixed per spec, so that many specs on one schedule do not fire in the same second.',
  'openapi[].timeout': 'Time limit of each request reading the source.',
  'openapi[].processingTimeout':
    'How long the service may take to process an upload before the refresh fails and is retried.',
  'openapi[].maxBytes': 'The largest document, with every file its $refs name.',
  'openapi[].maxRefFiles': 'Files the $refs may name besides the spec; past that the refresh fails.',
  notify:
    'Webhooks told what happens (queued on their own queue, retried, never holding up the sync): merged, failed, broken-links, conflict, failing and recovered.',
  'notify[].url':
    'The webhook. Such a URL is a secret: set it from the environment; logs name only its host.',
  'notify[].format':
    'slack ({"text": ...}: Slack, Mattermost, Rocket.Chat, Teams workflows) or json (docsync\'s own event, signed when secret is set).',
  'notify[].secret': 'Signs json bodies: X-Docsync-Signature-256: sha256=<HMAC-SHA256 of the body>.',
  'notify[].events': 'Which events (default: all of them).',
  'notify[].mappings': "Only these mappings' events (default: every mapping's, and the failures of specs).",
};
