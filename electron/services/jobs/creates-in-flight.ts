/**
 * One paid create on its way, from its admission until its answer (or its failure) is on its ledger
 * record. Until then it is counted here at its price, and the day's limit counts it from here.
 */
export interface CreateTicket {
  /** It went alone: nothing else was on its way on the connection, and nothing was admitted beside it. */
  readonly alone: boolean;
  /** Nothing else was on its way on the connection when it was admitted. */
  readonly aloneAtStart: boolean;
  /** No other create was admitted since this one (a balance read around it is its own). */
  undisturbed(): Promise<boolean>;
  /** Stops counting it (call once its answer or failure is on the record; calling again does nothing). */
  release(): void;
}

/** What a create asks for when its turn comes: both are asked at that moment, in one step. */
export interface CreateRequest {
  /** Whether it must go alone on its connection (nothing else on its way before it, nothing admitted beside it). */
  alone(): boolean;
  /** Refuses (throws) or answers the credits to count it at, given those counted for creates on their way. */
  admit(counted: number): number;
}

interface Waiting {
  request: CreateRequest;
  resolve(ticket: CreateTicket): void;
  reject(error: unknown): void;
}

interface ConnectionCreates {
  /** Credits of each create on its way, by ticket. */
  counted: Map<number, number>;
  /** A create that goes alone is on its way. */
  alone: boolean;
  /** Creates admitted so far (a measurement is disturbed when this moved). */
  admitted: number;
  /** Creates waiting for their turn, in the order they came. */
  waiting: Waiting[];
}

/**
 * The paid creates on their way on each connection, each counted at its price. Creates are not sent
 * one at a time: a create is admitted at once, and its check (the day's limit, against what is spent
 * and what is on its way) and its count happen in one step with nothing awaited between, so any number
 * of creates sent at once see each other. Only a create that asks to go alone waits, for the others to
 * be answered, and holds back those that come after it until it is answered itself.
 */
export class CreatesInFlight {
  private readonly connections = new Map<string, ConnectionCreates>();
  private tickets = 0;

  /** Credits counted for the creates on their way on a connection. */
  counted(connectionId: string): number {
    let sum = 0;
    for (const credits of this.connections.get(connectionId)?.counted.values() ?? []) sum += credits;
    return sum;
  }

  /** How many creates are on their way on a connection. */
  size(connectionId: string): number {
    return this.connections.get(connectionId)?.counted.size ?? 0;
  }

  /**
   * Admits a create when its turn comes (at once, unless a create going alone is on its way or waits
   * before it, or it goes alone and others are on their way): rejects with what `admit` threw.
   */
  enter(connectionId: string, request: CreateRequest): Promise<CreateTicket> {
    const connection = this.connection(connectionId);
    return new Promise<CreateTicket>((resolve, reject) => {
      connection.waiting.push({ request, resolve, reject });
      this.drain(connectionId, connection);
    });
  }

  private connection(id: string): ConnectionCreates {
    let connection = this.connections.get(id);
    if (!connection) {
      connection = { counted: new Map(), alone: false, admitted: 0, waiting: [] };
      this.connections.set(id, connection);
    }
    return connection;
  }

  /** Admits waiting creates in order while their turn has come. */
  private drain(id: string, connection: ConnectionCreates): void {
    while (connection.waiting.length > 0 && !connection.alone) {
      const next = connection.waiting[0];
      let alone: boolean;
      try {
        alone = next.request.alone();
      } catch (error) {
        connection.waiting.shift();
        next.reject(error);
        continue;
      }
      if (alone && connection.counted.size > 0) return;
      connection.waiting.shift();
      let credits: number;
      try {
        credits = next.request.admit(this.counted(id));
      } catch (error) {
        next.reject(error);
        continue;
      }
      next.resolve(this.admitted(id, connection, credits, alone));
    }
    if (connection.waiting.length === 0 && connection.counted.size === 0) this.connections.delete(id);
  }

  private admitted(id: string, connection: ConnectionCreates, credits: number, alone: boolean): CreateTicket {
    const ticket = (this.tickets += 1);
    const aloneAtStart = connection.counted.size === 0;
    connection.counted.set(ticket, credits);
    connection.admitted += 1;
    if (alone) connection.alone = true;
    const admittedAt = connection.admitted;
    let released = false;
    return {
      alone,
      aloneAtStart,
      undisturbed: async () => connection.admitted === admittedAt,
      release: () => {
        if (released) return;
        released = true;
        connection.counted.delete(ticket);
        if (alone) connection.alone = false;
        this.drain(id, connection);
      },
    };
  }
}
