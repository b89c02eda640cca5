// The writes a reconcile makes, each with its reason: made and recorded, or in a dry run only
// recorded (the result stands in with a placeholder), so that the same code lists what it would do.

export const VERSION_ACTIONS = [
  'create collection',
  'create custom field',
  'create space',
  'move space',
  'rename space',
  'set custom fields',
  'delete space',
  'create section',
  'rename section',
  'add site space',
  'set site space path',
  'remove site space',
  'set default variant',
] as const;

export type VersionAction = (typeof VERSION_ACTIONS)[number];

export interface VersionCall {
  action: VersionAction;
  /** The branch it is for, when one. */
  branch?: string;
  /** Why: `new branch`, `drift: removed by hand`, `branch deleted`... */
  reason: string;
}

export class VersionCalls {
  readonly made: VersionCall[] = [];

  constructor(private readonly dryRun: boolean) {}

  /** Records the call, and makes it unless this is a dry run, where `planned` stands in for its result. */
  async write<T, P = T>(call: VersionCall, act: () => Promise<T>, planned: P): Promise<T | P> {
    this.made.push(call);
    return this.dryRun ? planned : act();
  }

  /** The calls made to restore what someone changed by hand. */
  get drift(): VersionCall[] {
    return this.made.filter((call) => call.reason.startsWith('drift'));
  }
}

/** The id a dry run gives something it would create: never sent to the service. */
export const plannedId = (what: string): string => `(new ${what})`;
