// One AbortSignal that follows several others, and lets go of them when disposed. Node 20's
// AbortSignal.any keeps every combined signal reachable from long-lived sources (nodejs/node#55351):
// one per job would grow without end.
export interface LinkedAbort {
  signal: AbortSignal;
  dispose(): void;
}

export function linkedAbort(sources: readonly AbortSignal[]): LinkedAbort {
  const controller = new AbortController();
  const listeners: Array<[AbortSignal, () => void]> = [];
  for (const source of sources) {
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    const onAbort = () => controller.abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    listeners.push([source, onAbort]);
  }
  return {
    signal: controller.signal,
    dispose() {
      for (const [source, onAbort] of listeners) source.removeEventListener('abort', onAbort);
      listeners.length = 0;
    },
  };
}
