/** The time the server goes by. Tests inject a clock they can move; the server uses the system's. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
