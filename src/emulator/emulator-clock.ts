// The local service's clock: real time plus an offset tests can move (`POST /_emulator/clock`), so
// that a 7-day restore window can be crossed in a test.
export class EmulatorClock {
  readonly #base: () => number;
  #offsetMs = 0;

  constructor(base: () => number = Date.now) {
    this.#base = base;
  }

  now = (): Date => new Date(this.#base() + this.#offsetMs);

  advance(ms: number): void {
    this.#offsetMs += ms;
  }

  set(at: Date): void {
    this.#offsetMs = at.getTime() - this.#base();
  }
}
