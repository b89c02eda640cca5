// Every code a docsync error can carry, with what it means for whoever reads it in a log, in /status
// or in `docsync once --json`. DocsyncError takes only these, so a misspelt code is a type error.

export const ERROR_CODES = {
  // Starting: the configuration and what docsync needs around it.
  CONFIG_INVALID: 'the configuration file cannot be used: each problem names its key and line',
  REDIS_SERVER_MISSING: 'no redis-server program was found to start: install Redis or set redis.url',
  REDIS_SERVER_FAILED: 'the redis-server docsync started exited or did not answer: its output says why',
  REDIS_TOO_OLD: 'the Redis server is older than the version docsync needs: upgrade it',
  REDIS_UNREACHABLE: 'Redis did not answer in time: check redis.url (REDIS_URL) and that Redis runs',
  REDIS_WRITES_REFUSED:
    'Redis refuses writes (MISCONF): it cannot save to its disk, full or read-only; free space there',
  REDIS_TLS_FILE_UNREADABLE:
    'a file named in redis.tls (CA, certificate or key) cannot be read: check its path',
  DATA_DIR_BUSY: 'another docsync process uses the same data folder: stop it or choose another folder',
  DATA_DIR_NOT_WRITABLE:
    'the data folder (dataDir) cannot be made or written: read-only, not permitted, or full',
  HTTP_LISTEN_FAILED: 'the HTTP server cannot listen on http.listen (port taken, address refused)',
  HTTP_UNPROTECTED: 'the HTTP server would be reachable from other machines without protection',
  STATE_FILE_INVALID: 'the state file of the local service is not one it wrote: move it away or pass another',
  SERVICE_NOT_CONFIGURED:
    'the work needs the documentation service (service.baseUrl, service.token) or a part of the daemon this run lacks',

  // Jobs and the state docsync keeps in Redis.
  JOB_UNKNOWN: 'a queued job has a name no part of this docsync version runs',
  JOB_WRONG_QUEUE: 'a job was queued on another queue than the one its kind belongs on',
  JOB_PAYLOAD_INVALID: 'the data of a queued job does not match what its kind expects',
  MAPPING_UNKNOWN: 'a job names a mapping that is no longer in the configuration',
  SPEC_UNKNOWN: 'a job names an OpenAPI spec that is no longer in the configuration',
  STATE_INVALID: 'the state of a mapping kept in Redis does not match what docsync reads',
  LOCK_LOST: 'the lock of a space could not be renewed while a job held it: the job runs again',
  SHUTDOWN: 'docsync stopped before the job could finish: the job runs again in the next process',
  STATUS_PART_TIMEOUT:
    'a part of /status did not answer in time: an error stands in its place, the rest is shown',
  FAILED:
    'an unexpected failure, not one docsync raises on purpose (a bug, a library): the message says more',

  // Git: the repository of a mapping.
  GIT_FAILED: 'git failed for a reason docsync does not recognise: its stderr says more',
  GIT_NOT_FOUND: 'the remote, a commit, a path or an object does not exist',
  GIT_AUTH: 'the remote refused the credentials, or asked for some and none were given',
  GIT_NETWORK: 'the remote could not be reached, or the connection broke: retried',
  GIT_TIMEOUT: 'a git command ran past its time limit and was stopped: retried',
  GIT_ABORTED: 'a git command was stopped because its job was cancelled or docsync stopped',
  GIT_OUTPUT_INVALID: 'git printed more, or something other, than docsync accepts to read',
  GIT_UNAVAILABLE: 'the git program could not be started: install git or put it on PATH',
  GIT_INVALID_INPUT: 'a commit id, branch or path that git must not be given (an option, a `..`)',
  GIT_PUSH_REJECTED: 'the remote refused a push because the branch moved since it was read: retried',
  GIT_LOCKED: 'another git command held a lock on a ref of the mirror at the same time: retried',
  GIT_AUTH_KEY_INVALID:
    'a key file of git.auth (a GitHub App key, an SSH key) cannot be read or is not a private key of the kind needed',
  GITHUB_APP_REFUSED:
    'GitHub refused to give the GitHub App an installation token (401: the key or the clock; 404: appId, installationId)',
  GITHUB_APP_UNREACHABLE:
    'GitHub could not be reached for a GitHub App installation token, answered too slowly or failed: retried',
  BRANCH_NOT_FOUND: 'the branch of a mapping does not exist in its repository: check git.branch',
  FOLDER_NOT_FOUND: 'the folder of a mapping does not exist on its branch: check git.dir',
  VERSIONS_TARGET_MISSING:
    'the organization or site a branches mapping publishes into does not exist, or the token cannot see it',

  // Content: docs folders and archives.
  PATH_UNSAFE: 'a path is empty, absolute, leaves its folder, or is one git or a file system refuses',
  ARCHIVE_INVALID: 'an archive is not a readable zip, or holds entries docsync refuses (duplicates, links)',
  ARCHIVE_TOO_LARGE: 'an archive, or one of its entries, is larger than docsync accepts',
  ARCHIVE_TOO_MANY_ENTRIES: 'an archive holds more files than docsync accepts',
  CONTENT_INVALID:
    'a docs folder cannot be read or written as documented (broken SUMMARY.md, clashing paths)',

  // The documentation service's API.
  API_HTTP_ERROR: 'the service answered with an error status, or one the request did not expect',
  API_NETWORK_ERROR: 'the service could not be reached, or the connection broke: retried',
  API_TIMEOUT: 'the service gave no complete answer in time: retried',
  API_RESPONSE_INVALID: 'the service answered with something that does not match its documented shape',
  API_RESPONSE_TOO_LARGE: 'the answer of the service is larger than docsync accepts to read',
  API_ABORTED: 'a request to the service was stopped because its job was cancelled or docsync stopped',
  API_CLIENT_CLOSED: 'a request to the service was made while docsync was closing its client',
  API_BASE_URL_INVALID: 'service.baseUrl is not an http(s) address without credentials, query or fragment',
  API_DOWNLOAD_URL_INVALID: 'the service gave a download address that is not http(s)',

  // Export: from the service into git.
  EXPORT_PATH_UNSAFE:
    'an export would write a path outside the folder of the mapping: rename it in the service',
  EXPORT_FILE_TOO_LARGE: 'a file of the space is larger than export.maxFileBytes of the mapping',
  EXPORT_DOWNLOAD_FAILED: 'a file of the space could not be downloaded from the service',

  // OpenAPI specs: their sources and their upload.
  SOURCE_UNREACHABLE: 'the source of an OpenAPI spec could not be read (network, file system): retried',
  SOURCE_TIMEOUT: 'the source of an OpenAPI spec was not read in full in time: retried',
  SOURCE_TOO_LARGE: 'the source of an OpenAPI spec, or its $refs, is larger than the spec allows',
  SOURCE_NOT_FOUND: 'the source file of an OpenAPI spec does not exist or is not a file',
  SOURCE_REFUSED: 'the source of an OpenAPI spec was refused, or a $ref leaves where the document came from',
  OPENAPI_INVALID: 'an OpenAPI document is not valid: it is not uploaded until it is fixed',
  OPENAPI_REJECTED_BEFORE:
    'the service refused this content before: it is not uploaded again until it changes',
  OPENAPI_PROCESSING_TIMEOUT:
    'the service did not finish processing an uploaded OpenAPI spec in time: retried',
  // The service's own processing codes (lastProcessErrorCode), prefixed: see refresh-openapi-spec.ts.
  OPENAPI_FETCH_TIMEOUT: 'the service timed out fetching the OpenAPI spec it was given: retried',
  OPENAPI_FETCH_ERROR: 'the service could not fetch the OpenAPI spec it was given: retried',
  OPENAPI_PARSE_ERROR:
    'the service could not parse the uploaded OpenAPI spec: not uploaded again until it changes',

  // Commit statuses: docsync's status of an imported commit on the git host (report of a mapping).
  GIT_HOST_REFUSED:
    'the git host refused a commit status (401: the token; 403, 404: its access to the repository or project)',
  GIT_HOST_UNREACHABLE: 'the git host could not be reached, answered too slowly or failed: retried',

  // Notifications: the webhooks of `notify:`.
  NOTIFY_REFUSED:
    'a notification webhook refused the message (a 4xx: its URL, or the secret it checks): not sent again',
  NOTIFY_UNREACHABLE: 'a notification webhook could not be reached, answered too slowly or failed: retried',

  // Artifacts: bundles docsync hands to the service. Misuse by docsync itself, never retried.
  ARTIFACT_ID_INVALID: 'an artifact id that docsync did not hand out',
  ARTIFACT_MISSING: 'an artifact was published before its file was written, or after it was removed',
  ARTIFACT_SECRET_WEAK: 'the artifact signing secret is shorter than 32 bytes',
  // Artifacts in object storage (artifacts.s3): the bucket, the credentials and the store's answers.
  ARTIFACT_BUCKET_MISSING:
    'the bucket of artifacts.s3 does not exist at the store: check artifacts.s3.bucket',
  ARTIFACT_STORAGE_REFUSED:
    'the object storage refused the credentials (unknown, wrong, expired, no access to the bucket), or none were found',
  ARTIFACT_CLOCK_SKEW:
    "the object storage refused requests signed at a time too far from its own: set this machine's clock right (NTP)",
  ARTIFACT_STORAGE_UNREACHABLE:
    'the object storage could not be reached, answered too slowly, failed (5xx) or throttled: retried',
  ARTIFACT_STORAGE_FAILED:
    'the object storage refused a request for another reason (a region, a setting of the bucket): the message says which',
  DEMO_NO_ORGANIZATION: 'the service given to the demo lists no organization its token administers',
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The codes one error class raises, checked against the table: unlike `Extract`, a member that is
 * not in the table is a type error here rather than silently dropped.
 */
export type ErrorCodeSubset<Codes extends ErrorCode> = Codes;
